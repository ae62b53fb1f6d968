/** An RGB picture, 3 bytes a pixel, rows top to bottom (sharp's raw output without alpha). */
export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
}
