import { Check, Lock } from 'lucide-react';
import type { UserModel } from '../../../../common/api/studio.ts';
import { generationMessages } from '../../../../common/messages/generation.ts';
import emptyFrameUrl from '../../../assets/illustrations/empty-frame.svg';
import { Image } from '../../../components/image.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';
import { modelStatusView } from '../../studio/model-status.ts';
import { isTrainingModel, isUsableModel, selectableModelIds } from '../generation-rules.ts';

const text = generationMessages;

interface PickerBase {
  models: readonly UserModel[];
  /** The group's visible name (a fieldset legend). */
  legend: string;
  /** Everything greyed with a lock (the plan does not allow it). */
  locked?: boolean;
  disabled?: boolean;
  className?: string;
}

/**
 * One of the user's models (the preset page, the bulk dialog): a radio per model with its face.
 * Only complete models can be chosen; a training one is greyed with its spinner.
 */
export function SingleModelPicker({
  models,
  legend,
  value,
  onChange,
  name,
  disabled = false,
  className,
}: PickerBase & { value: string | null; onChange: (id: string) => void; name: string }) {
  return (
    <fieldset className={cn('flex flex-col gap-3', className)} disabled={disabled}>
      <legend className="mb-3 text-sm font-medium text-neutral-800">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {models.map((model) => (
          <ModelOption
            key={model.id}
            model={model}
            type="radio"
            name={name}
            checked={value === model.id}
            onChange={() => onChange(model.id)}
          />
        ))}
      </div>
    </fieldset>
  );
}

/**
 * Several models (the custom panel): checkboxes and Select All, which counts and selects only
 * the models not in training that can make images. Locked (no Pro access), every model shows a
 * lock and is greyed.
 */
export function MultiModelPicker({
  models,
  legend,
  selected,
  onChange,
  onSelectAll,
  locked = false,
  disabled = false,
  className,
}: PickerBase & {
  selected: ReadonlySet<string>;
  onChange: (id: string, on: boolean) => void;
  onSelectAll: () => void;
}) {
  const selectable = selectableModelIds(models);
  const allSelected = selectable.length > 0 && selectable.every((id) => selected.has(id));
  return (
    <fieldset className={cn('flex flex-col', className)} disabled={disabled || locked}>
      {/* The legend names the group; the visible copy shares its row with Select All. */}
      <legend className="sr-only">{legend}</legend>
      <div className="mb-3 flex min-h-8 items-center justify-between gap-3">
        <span aria-hidden="true" className="text-sm font-medium text-neutral-800">
          {legend}
        </span>
        {selectable.length > 1 ? (
          <button
            type="button"
            onClick={onSelectAll}
            aria-pressed={allSelected}
            className="cursor-pointer rounded-full px-2 py-1 text-sm font-medium text-accent-700 hover:bg-accent-50 disabled:cursor-not-allowed disabled:text-neutral-500 disabled:hover:bg-transparent"
          >
            {text.selectAllCount(selectable.length)}
          </button>
        ) : null}
      </div>
      <div className="grid gap-2 sm:grid-cols-2">
        {models.map((model) => (
          <ModelOption
            key={model.id}
            model={model}
            type="checkbox"
            checked={selected.has(model.id)}
            locked={locked}
            onChange={(on) => onChange(model.id, on)}
          />
        ))}
      </div>
      {selected.size > 1 ? (
        <p className="mt-3 text-xs text-neutral-600" aria-live="polite">
          {text.bulkNote(selected.size)}
        </p>
      ) : null}
    </fieldset>
  );
}

function ModelOption({
  model,
  type,
  name,
  checked,
  locked = false,
  onChange,
}: {
  model: UserModel;
  type: 'radio' | 'checkbox';
  name?: string;
  checked: boolean;
  locked?: boolean;
  onChange: (on: boolean) => void;
}) {
  const training = isTrainingModel(model);
  const usable = isUsableModel(model);
  const unavailable = locked || !usable;
  const status = modelStatusView(model.status);
  const inputId = `model-option-${type}-${model.id}`;
  const statusId = `${inputId}-status`;

  return (
    <label
      htmlFor={inputId}
      data-testid="model-option"
      className={cn(
        'relative flex min-h-16 items-center gap-3 rounded-control border bg-white p-2.5 pr-10 transition-colors',
        checked && !unavailable
          ? 'border-accent-600 ring-2 ring-accent-600/25'
          : 'border-neutral-200 hover:border-neutral-300',
        unavailable ? 'cursor-not-allowed opacity-60 grayscale' : 'cursor-pointer',
      )}
    >
      <input
        id={inputId}
        type={type}
        name={name}
        checked={checked && !unavailable}
        disabled={unavailable}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={statusId}
        className="peer sr-only"
      />
      <Image
        src={model.featuredImageUrl ?? emptyFrameUrl}
        alt=""
        aspectRatio="1 / 1"
        fit={model.featuredImageUrl ? 'cover' : 'contain'}
        className="size-11 shrink-0 rounded-full bg-neutral-100"
      />
      <span className="flex min-w-0 flex-col">
        <span className="truncate text-sm font-semibold text-neutral-950">{model.name}</span>
        <span id={statusId} className="flex items-center gap-1 text-xs text-neutral-600">
          {training ? <Spinner size="sm" /> : null}
          {locked ? text.modelLocked : training ? text.modelTraining : status.label}
        </span>
      </span>
      <span
        aria-hidden="true"
        className={cn(
          'absolute top-1/2 right-3 flex size-5 -translate-y-1/2 items-center justify-center border text-white',
          type === 'radio' ? 'rounded-full' : 'rounded-md',
          checked && !unavailable
            ? 'border-accent-600 bg-accent-600'
            : 'border-neutral-300 bg-white',
          'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-accent-600',
        )}
      >
        {locked ? (
          <Lock className="size-3 text-neutral-500" />
        ) : checked && !unavailable ? (
          <Check className="size-3.5" strokeWidth={3} />
        ) : null}
      </span>
    </label>
  );
}
