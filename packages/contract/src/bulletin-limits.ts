/** An announcement title's most characters: code points, as the admin API's schema counts them
 * (admin/bulletins.ts). The console says it beside the title rather than cutting a title. */
export const bulletinTitleMaxLength = 200;
