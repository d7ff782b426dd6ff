/** The QR code's box, shared with the empty box that holds its place while its chunk loads, so
 * its arrival moves nothing below it. The code is 10 rem square; the box is as tall whatever
 * the text beside it. */
export const qrBoxClass =
  'mx-auto mt-12 flex min-h-[13rem] max-w-md flex-col items-center gap-5 rounded-3xl border border-line bg-surface p-6 text-center shadow-sm sm:flex-row sm:text-left';
