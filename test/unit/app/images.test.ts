import { decodeImage, MAX_IMAGE_SIDE } from '../../../src/app/images';
import { BadRequestError } from '../../../src/domain/errors';
import { png } from '../../fixtures/images';

/** A PNG whose header claims a size its (tiny) data does not have: what a decompression bomb looks like before decoding. */
function pngClaiming(width: number, height: number): Buffer {
  const b = Buffer.from(png(2, 2));
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
}

const decode = (bytes: Buffer, context: 'PHOTO_ID' | 'PROOF_OF_ADDRESS' = 'PHOTO_ID') => decodeImage('document.front_side_data', bytes.toString('base64'), context);

describe('image checks before decoding', () => {
  it('accepts a normal image and detects its type from the bytes', () => {
    expect(decode(png(30, 20))).toMatchObject({ contentType: 'image/png', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('refuses images whose header claims too many pixels', () => {
    expect(() => decode(pngClaiming(MAX_IMAGE_SIDE + 1, 10))).toThrow(/10001×10 pixels; the limit is 10000 pixels a side/);
    expect(() => decode(pngClaiming(9000, 9000))).toThrow(/40 megapixels/);
  });

  it('refuses truncated images and a data URL with junk', () => {
    expect(() => decode(png(30, 20).subarray(0, 20))).toThrow(BadRequestError);
    expect(() => decodeImage('f', 'data:image/png;base64,@@@@', 'PHOTO_ID')).toThrow(/not valid base64/);
  });
});
