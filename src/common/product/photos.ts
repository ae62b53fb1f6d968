// Training photos and uploads: how many, how big, which types.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

export const photos = {
  min: 8,
  max: 12,
  maxUploadBytes: 10 * 1024 * 1024,
  maxUploadMegabytes: 10,
  minShortSidePx: 512,
  // A face must be at least this big to train on: its box's short side in pixels and as a share
  // of the photo's short side (calibrated on the fixtures in src/server/images/photo-checks.ts).
  minFacePx: 128,
  minFaceSharePercent: 15,
  // Decoding is refused above this, so a small file cannot expand into a huge bitmap. A 48 MP
  // phone photo (8064 x 6048) still fits.
  maxPixels: 50_000_000,
  // HEIC is what iPhones take: the server converts it (sharp's prebuilt libvips cannot decode
  // HEVC, so a WebAssembly build of libheif does).
  acceptedMimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'],
  acceptedTypeNames: ['JPEG', 'PNG', 'WebP', 'HEIC'],
} as const;
