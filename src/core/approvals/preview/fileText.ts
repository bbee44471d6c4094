// A file's text twice: as server-filesystem reads it (Node's UTF-8 decoding, every invalid byte sequence
// replaced by U+FFFD, a BOM kept) and as a preview shows what is there now. They differ only for a file
// that is not valid UTF-8: what is there now shows each invalid byte as `\xNN`, so a line the server
// re-encodes when it writes the file back (the replacement character instead of the byte) shows as
// changed instead of hiding in an identical-looking line.
import type { PreviewFileSystem } from './fileSystemPort';

/** What the server reads (`read`) and what the file holds now, invalid bytes escaped (`now`). */
export interface FileText {
  readonly read: string;
  readonly now: string;
}

/** Reads a file for a prediction; without a byte reader in the port, both texts are the decoded one. */
export async function readFileText(fs: PreviewFileSystem, target: string): Promise<FileText> {
  const read = await fs.readText(target);
  if (fs.readBytes === undefined) return { read, now: read };
  return { read, now: escapeInvalidUtf8(await fs.readBytes(target)) };
}

/** Decodes UTF-8 bytes, each byte that is not part of a valid sequence written as `\xNN`. */
export function escapeInvalidUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // Not valid UTF-8: decoded by hand below.
  }
  let text = '';
  let index = 0;
  while (index < bytes.length) {
    const length = sequenceLength(bytes, index);
    if (length === 0) {
      text += `\\x${bytes[index].toString(16).toUpperCase().padStart(2, '0')}`;
      index += 1;
      continue;
    }
    text += new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(index, index + length));
    index += length;
  }
  return text;
}

/** The length of the valid UTF-8 sequence at `index` (RFC 3629: no overlong forms, no surrogates), or 0. */
function sequenceLength(bytes: Uint8Array, index: number): number {
  const lead = bytes[index];
  if (lead < 0x80) return 1;
  // For each lead byte: the sequence length and the allowed range of the second byte.
  let length: number;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead === 0xe0) low = 0xa0;
    if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f;
  } else return 0;
  if (index + length > bytes.length) return 0;
  if (bytes[index + 1] < low || bytes[index + 1] > high) return 0;
  for (let offset = 2; offset < length; offset++) {
    if (bytes[index + offset] < 0x80 || bytes[index + offset] > 0xbf) return 0;
  }
  return length;
}
