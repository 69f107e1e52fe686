import type { degrees as Degrees, PDFEmbeddedPage, PDFPage } from 'pdf-lib';

const A4_WIDTH = 595.28;
const A4_HEIGHT = 841.89;
const QUADRANT_WIDTH = A4_WIDTH / 2; // 105 mm
const QUADRANT_HEIGHT = A4_HEIGHT / 2; // 148.5 mm
const LABELS_PER_SHEET = 4;

/** Puts the labels of a merged PDF four to an A4 portrait sheet, for office printers. */
export async function layoutA4(pdf: Uint8Array): Promise<Buffer> {
  const { degrees, ParseSpeeds, PDFDocument } = await import('pdf-lib');
  const source = await PDFDocument.load(pdf, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  const sheets = await PDFDocument.create();
  const labels = source.getPages();
  // a page without content streams cannot be embedded; its quadrant stays blank
  const printable = labels.filter((label) => label.node.Contents() !== undefined);
  // embedPage's default box ignores a MediaBox that does not start at 0,0, so pass the visible box
  const embedded = await sheets.embedPages(printable, printable.map(visibleBox));
  const embeddedByLabel = new Map(printable.map((label, i) => [label, embedded[i]!]));
  let sheet: PDFPage | undefined;
  labels.forEach((label, index) => {
    const slot = index % LABELS_PER_SHEET;
    if (slot === 0) sheet = sheets.addPage([A4_WIDTH, A4_HEIGHT]);
    const page = embeddedByLabel.get(label);
    if (page) drawInQuadrant(sheet!, page, label.getRotation().angle, slot, degrees);
  });
  return Buffer.from(await sheets.save({ objectsPerTick: Infinity }));
}

function visibleBox(label: PDFPage): { left: number; bottom: number; right: number; top: number } {
  const { x, y, width, height } = label.getCropBox();
  return { left: x, bottom: y, right: x + width, top: y + height };
}

/** Slots run left to right, top to bottom; the label keeps its size unless it overflows the quadrant. */
function drawInQuadrant(sheet: PDFPage, label: PDFEmbeddedPage, rotation: number, slot: number, degrees: typeof Degrees): void {
  const quarterTurns = (((Math.round(rotation / 90) % 4) + 4) % 4) as 0 | 1 | 2 | 3;
  const sideways = quarterTurns % 2 === 1;
  const shownWidth = sideways ? label.height : label.width;
  const shownHeight = sideways ? label.width : label.height;
  const scale = Math.min(1, QUADRANT_WIDTH / shownWidth, QUADRANT_HEIGHT / shownHeight);
  const width = shownWidth * scale;
  const height = shownHeight * scale;
  const left = (slot % 2) * QUADRANT_WIDTH + (QUADRANT_WIDTH - width) / 2;
  const bottom = (slot < 2 ? QUADRANT_HEIGHT : 0) + (QUADRANT_HEIGHT - height) / 2;
  // /Rotate turns the page clockwise for display; pdf-lib rotates counter-clockwise about (x, y)
  const origin = [
    { x: left, y: bottom },
    { x: left, y: bottom + height },
    { x: left + width, y: bottom + height },
    { x: left + width, y: bottom },
  ][quarterTurns];
  sheet.drawPage(label, { ...origin, xScale: scale, yScale: scale, rotate: degrees(-90 * quarterTurns) });
}
