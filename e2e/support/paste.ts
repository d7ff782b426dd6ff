import type { Page } from 'playwright-core';

/** Pastes a 320×180 PNG into the console's editor, as a screenshot from the clipboard arrives. */
export async function pastePicture(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 180;
    const context = canvas.getContext('2d');
    if (context === null) throw new Error('no canvas');
    context.fillStyle = '#4f8cff';
    context.fillRect(0, 0, 320, 180);
    const blob = await new Promise<Blob>((done) => canvas.toBlob((made) => done(made ?? new Blob()), 'image/png'));
    const data = new DataTransfer();
    data.items.add(new File([blob], 'banner.png', { type: 'image/png' }));
    document
      .querySelector('.ProseMirror')
      ?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
}
