// Catalog: categories, presets, example photos, quiz images.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

import { photos } from './photos.ts';

export const catalog = {
  /**
   * Every catalog picture is kept as WebP at these widths (never enlarged): cards are 320 px
   * wide (640 on dense screens), the preset detail page shows up to 1280.
   */
  imageWidths: [320, 640, 1280],
  /** The width an image's plain `src` points at; `srcset` offers the others. */
  defaultImageWidth: 640,
  /** Not in the specification: smaller pictures look broken on a 320 px card. */
  minImageSidePx: 320,
  maxUploadBytes: photos.maxUploadBytes,
  maxUploadMegabytes: photos.maxUploadMegabytes,
  maxPixels: photos.maxPixels,
  // Pictures the site shows as they are sent: the web's own formats.
  acceptedMimeTypes: ['image/jpeg', 'image/png', 'image/webp'],
  acceptedTypeNames: ['JPEG', 'PNG', 'WebP'],
  // Not in the specification: bounds for what an operator types.
  manualIdMaxLength: 64,
  displayNameMaxLength: 80,
  descriptionMaxLength: 1000,
  promptMaxLength: 2000,
  captionMaxLength: 200,
  emojiMaxLength: 16,
  /** The word in a preset prompt that the engine replaces with the user model's trigger word. */
  triggerPlaceholder: '{trigger}',
} as const;
