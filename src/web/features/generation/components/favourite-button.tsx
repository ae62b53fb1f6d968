import { Heart } from 'lucide-react';
import { generationMessages } from '../../../../common/messages/generation.ts';
import { Button, type ButtonProps } from '../../../components/ui/button.tsx';
import type { Generation } from '../generation-api.ts';
import { useToggleFavourite } from '../use-generation-actions.ts';

const text = generationMessages;

/** Favourite / Unfavourite for one generation, as on its detail page and in its modal. */
export function FavouriteButton({
  generation,
  size,
}: {
  generation: Pick<Generation, 'id' | 'favourite'>;
  size?: ButtonProps['size'];
}) {
  const favourite = useToggleFavourite();
  return (
    <Button
      variant="outline"
      size={size}
      loading={favourite.isPending}
      onClick={() => favourite.mutate(generation)}
    >
      <Heart
        aria-hidden="true"
        className={generation.favourite ? 'size-4 fill-current text-accent-600' : 'size-4'}
      />
      {generation.favourite ? text.unfavourite : text.favourite}
    </Button>
  );
}
