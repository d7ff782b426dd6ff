/**
 * The share picture's font slices: the WOFF files unwrapped by Node's zlib before satori reads
 * them (reach/picture/fonts.ts) draw exactly what satori draws from the WOFF files themselves.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import satori from 'satori';
import { facesFor, sfntOf, slicePath, slicesFor, type Weight } from '../src/reach/picture/fonts.js';

const woffOf = (slice: string, weight: Weight) => readFileSync(slicePath(slice, weight));

test('a slice unwrapped is an OpenType file of the same tables, each whole and 4-byte aligned', () => {
  const woff = woffOf('latin', 400);
  const sfnt = sfntOf(woff);
  assert.equal(sfnt.readUInt32BE(0), woff.readUInt32BE(4), 'the flavour the WOFF header names');
  const tables = sfnt.readUInt16BE(4);
  assert.equal(tables, woff.readUInt16BE(12));
  assert.equal(sfnt.length, woff.readUInt32BE(16), 'the size the WOFF header gives for the font it wraps');
  for (let i = 0; i < tables; i++) {
    const offset = sfnt.readUInt32BE(20 + i * 16);
    assert.equal(offset % 4, 0);
    assert.ok(offset + sfnt.readUInt32BE(24 + i * 16) <= sfnt.length);
  }
});

test('what is not WOFF is left as it is; a WOFF whose table is cut short is refused', () => {
  const ttf = Buffer.from('\0\x01\0\0 a font already');
  assert.equal(sfntOf(ttf), ttf);
  const woff = Buffer.from(woffOf('latin', 700));
  const at = 44; // the first table's entry: its compressed length made one byte longer than stored
  woff.writeUInt32BE(woff.readUInt32BE(at + 8) - 1, at + 8);
  assert.throws(() => sfntOf(woff));
});

test('satori draws the same title from the unwrapped slices as from the WOFF files', async () => {
  const title = '服务器维护通知 第 1 期: Chat 2.0 — “新版本” 发布…';
  const { fonts, fontFamily } = await facesFor(title, [400, 700]);
  assert.ok(fonts.length > 4, 'the title touches several slices');
  const asWoff = fonts.map((font) => {
    const slice = font.name.replace(/^Noto Sans SC /, '');
    return { ...font, data: woffOf(slice, font.weight) };
  });
  assert.deepEqual(slicesFor(title).length * 2, fonts.length);
  const draw = (faces: typeof fonts) =>
    satori({ type: 'div', props: { style: { display: 'flex', fontFamily, fontSize: 64 }, children: title } } as never, {
      width: 1200,
      height: 630,
      fonts: faces,
    });
  const [unwrapped, wrapped] = [await draw(fonts), await draw(asWoff)];
  assert.ok(unwrapped.includes('<path'), 'the text is drawn as outlines');
  assert.equal(unwrapped, wrapped);
});
