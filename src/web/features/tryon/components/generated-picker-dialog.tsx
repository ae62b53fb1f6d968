import { useQuery } from '@tanstack/react-query';
import { Check, Images } from 'lucide-react';
import { Link } from 'react-router';
import type { Generation } from '../../../../common/api/generation.ts';
import { dashboardMessages } from '../../../../common/messages/dashboard.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { tryonMessages } from '../../../../common/messages/tryon.ts';
import { lists } from '../../../../common/product/limits.ts';
import { routes } from '../../../../common/product/routes.ts';
import { Image } from '../../../components/image.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../../components/ui/dialog.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { tryOnPickerQueryOptions } from '../tryon-api.ts';

const text = tryonMessages;
const presetsTab = `${routes.dashboard}?main=generation&sub=presets`;

export interface GeneratedPickerDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  selectedId: string | null;
  onPick: (generation: Generation) => void;
}

/**
 * The person picker's other source: the user's 20 latest completed generations (blocked ones
 * are never offered), as a grid of thumbnails. Picking one closes the dialog.
 */
export function GeneratedPickerDialog({
  open,
  onOpenChange,
  selectedId,
  onPick,
}: GeneratedPickerDialogProps) {
  const query = useQuery({ ...tryOnPickerQueryOptions(), enabled: open });
  const generations = query.data?.generations ?? [];

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="md:max-w-2xl"
        closeLabel={commonMessages.close}
        title={text.pickerTitle}
        description={text.pickerText}
      >
        {query.isPending ? (
          <ul aria-busy="true" className="grid grid-cols-3 gap-3 md:grid-cols-4">
            {Array.from({ length: 8 }, (_, index) => (
              <li key={index}>
                <Skeleton shape="card" className="aspect-[4/5] w-full" />
              </li>
            ))}
          </ul>
        ) : query.isError ? (
          <FormAlert>
            <p>{text.pickerLoadFailed}</p>
            <Button
              variant="outline"
              size="sm"
              className="mt-3"
              onClick={() => void query.refetch()}
            >
              {commonMessages.tryAgain}
            </Button>
          </FormAlert>
        ) : generations.length === 0 ? (
          <EmptyState
            headingLevel="h3"
            icon={<Images aria-hidden="true" />}
            title={text.noGeneratedImages}
            description={text.pickerEmptyHint}
            action={
              <Button asChild variant="outline" onClick={() => onOpenChange(false)}>
                <Link to={presetsTab}>{dashboardMessages.browsePresets}</Link>
              </Button>
            }
          />
        ) : (
          <ul aria-label={text.pickerTitle} className="grid grid-cols-3 gap-3 md:grid-cols-4">
            {generations.slice(0, lists.tryOnPicker).map((generation, index) => {
              const selected = generation.id === selectedId;
              const name = text.pickerItem(generation.modelName, index + 1);
              return (
                <li key={generation.id}>
                  <button
                    type="button"
                    aria-label={name}
                    aria-pressed={selected}
                    onClick={() => onPick(generation)}
                    className={cn(
                      'group relative block w-full overflow-hidden rounded-control ring-2 ring-transparent transition-shadow motion-reduce:transition-none',
                      'hover:ring-accent-300',
                      selected && 'ring-accent-600 hover:ring-accent-600',
                    )}
                  >
                    <Image
                      src={generation.thumbnailUrl ?? generation.imageUrl}
                      alt=""
                      aspectRatio="4 / 5"
                      className="w-full"
                    />
                    {selected ? (
                      <span className="absolute top-1.5 right-1.5 flex size-6 items-center justify-center rounded-full bg-accent-600 text-white">
                        <Check aria-hidden="true" className="size-3.5" />
                      </span>
                    ) : null}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
