import type { CatalogImage } from '../../../../common/api/catalog.ts';
import { Image, type ImageProps } from '../../../components/image.tsx';

export interface CatalogPhotoProps extends Omit<
  ImageProps,
  'src' | 'alt' | 'width' | 'height' | 'srcSet'
> {
  image: Pick<CatalogImage, 'src' | 'srcset' | 'width' | 'height' | 'alt'>;
  /** Defaults to the catalog's own description of the picture. */
  alt?: string;
  /** Required: how wide the picture shows, so the browser picks the right file from srcset. */
  sizes: string;
}

/** A catalog picture with its srcset and intrinsic size, so it never shifts the layout. */
export function CatalogPhoto({ image, alt, sizes, ...props }: CatalogPhotoProps) {
  return (
    <Image
      src={image.src}
      srcSet={image.srcset}
      sizes={sizes}
      width={image.width}
      height={image.height}
      alt={alt ?? image.alt}
      {...props}
    />
  );
}
