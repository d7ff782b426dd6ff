/**
 * A share picture drawn: satori lays the card out and writes its text as SVG paths, resvg turns
 * the SVG into a PNG. Both load the first time a picture is drawn, not when the server starts
 * (docs/memory.md#what-keeps-a-worker-under-90-mb).
 */
import type * as ResvgModule from '@resvg/resvg-js';
import type * as SatoriModule from 'satori';
import { lazy } from '../../lib/lazy.js';
import { pictureHeight, pictureWidth, type Node } from './card.js';
import { facesFor, type Weight } from './fonts.js';

const loadSatori = lazy<typeof SatoriModule>('satori');
const loadResvg = lazy<typeof ResvgModule>('@resvg/resvg-js');

const weights: readonly Weight[] = [400, 700];

/** Every piece of text in the tree, to pick the font slices that draw it. */
function textOf(node: Node | string | undefined | (Node | string)[]): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return node.map(textOf).join('');
  return textOf(node.props.children);
}

/** The card laid out by satori: an SVG whose text is outlines. */
export async function renderSvg(card: Node): Promise<string> {
  // Satori's text wrapping inserts an ellipsis of its own: its slice is loaded too.
  const { fonts, fontFamily } = await facesFor(`${textOf(card)}…`, weights);
  const root = { ...card, props: { ...card.props, style: { ...card.props.style, fontFamily } } };
  return loadSatori().default(root as never, { width: pictureWidth, height: pictureHeight, fonts });
}

export async function renderPng(card: Node): Promise<Buffer> {
  const svg = await renderSvg(card);
  const { Resvg } = loadResvg();
  return new Resvg(svg, { fitTo: { mode: 'original' } }).render().asPng();
}
