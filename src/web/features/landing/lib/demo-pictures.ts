// The prompt demo's pictures: one person's own selfie and what the studio engine made of her
// from the five example prompts (landing.demoPrompts), by `npm run content:build`. They belong
// to the page's fixed copy, so they ship with the web app rather than the editable catalog.
import type { CatalogImage } from '../../../../common/api/catalog.ts';
import { landingMessages } from '../../../../common/messages/landing.ts';
import { landing } from '../../../../common/product/landing.ts';
import original320 from '../assets/demo-original-320.webp';
import original640 from '../assets/demo-original-640.webp';
import result1at320 from '../assets/demo-1-320.webp';
import result1at640 from '../assets/demo-1-640.webp';
import result2at320 from '../assets/demo-2-320.webp';
import result2at640 from '../assets/demo-2-640.webp';
import result3at320 from '../assets/demo-3-320.webp';
import result3at640 from '../assets/demo-3-640.webp';
import result4at320 from '../assets/demo-4-320.webp';
import result4at640 from '../assets/demo-4-640.webp';
import result5at320 from '../assets/demo-5-320.webp';
import result5at640 from '../assets/demo-5-640.webp';

export type DemoPicture = Pick<CatalogImage, 'id' | 'src' | 'srcset' | 'width' | 'height' | 'alt'>;

function picture(id: string, small: string, large: string, alt: string): DemoPicture {
  return {
    id,
    src: large,
    srcset: `${small} 320w, ${large} 640w`,
    width: 640,
    height: 800,
    alt,
  };
}

export const demoOriginal = picture(
  'demo-original',
  original320,
  original640,
  landingMessages.demo.originalAlt,
);

/** In the order of landing.demoPrompts. */
export const demoResults: DemoPicture[] = [
  [result1at320, result1at640],
  [result2at320, result2at640],
  [result3at320, result3at640],
  [result4at320, result4at640],
  [result5at320, result5at640],
].map(([small, large], index) =>
  picture(
    `demo-${index + 1}`,
    small!,
    large!,
    landingMessages.demo.generatedAlt(landing.demoPrompts[index]!),
  ),
);
