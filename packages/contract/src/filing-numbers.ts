/**
 * The shapes of the two filing numbers a site in mainland China shows: its ICP filing
 * (京ICP备12345678号-1) and its public security filing (京公网安备11010502030143号), each opened
 * by its province's one-character name. Empty means none. Free of TypeBox: the console checks
 * its form with them before the admin API checks them again (admin/listing.ts).
 */
const province = '[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼]';
export const icpFilingPattern = `^(|${province}ICP备\\d{6,10}号(-\\d{1,3})?)$`;
export const policeFilingPattern = `^(|${province}公网安备\\s?\\d{14}号)$`;
