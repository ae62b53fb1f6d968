import { useId, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, Pencil, Trash2, Upload } from 'lucide-react';
import { adminPageMessages } from '../../../../common/messages/admin.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { catalog } from '../../../../common/product/catalog.ts';
import { AlertDialogAction } from '../../../components/ui/alert-dialog.tsx';
import { Button, type ButtonProps } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { fieldClasses } from '../../../components/ui/input.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { cn } from '../../../lib/cn.ts';
import { invalidateCatalog } from '../admin-api.ts';

const text = adminPageMessages;

/** A native select with the look of the other fields (keyboard and screen readers for free). */
export const selectClasses = cn(fieldClasses, 'h-11 cursor-pointer pr-8');

/**
 * Runs an admin write: shows the server's own message when it is refused, refreshes the admin
 * lists and the public catalog when it went through.
 */
export function useAdminAction() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  async function run<T>(key: string, action: () => Promise<T>, success?: string) {
    setBusy(key);
    try {
      const result = await action();
      if (success) notify.success(success);
      return result;
    } catch (error) {
      notify.error(error instanceof Error ? error.message : commonMessages.unexpectedError);
      return undefined;
    } finally {
      setBusy(null);
      await invalidateCatalog(queryClient);
    }
  }
  return { run, busy };
}

/**
 * Saves an admin form through `useAdminAction`; a refusal also shows in the form, next to the
 * field to fix (the toast repeats it).
 */
export function useAdminSave() {
  const { run, busy } = useAdminAction();
  const [error, setError] = useState<string | null>(null);
  async function save<T>(request: () => Promise<T>, success: string) {
    setError(null);
    return run(
      'save',
      () =>
        request().catch((caught: unknown) => {
          setError(caught instanceof Error ? caught.message : commonMessages.unexpectedError);
          throw caught;
        }),
      success,
    );
  }
  return { save, saving: busy === 'save', error };
}

/**
 * The dialog of an admin form (a category, a preset): the refusal of the last save, the fields
 * (`children`), Cancel and the submit button. Closing it any way calls `onClose`.
 */
export function AdminFormDialog({
  title,
  description,
  className,
  error,
  saving,
  submitLabel,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  description: string;
  className?: string;
  error: string | null;
  saving: boolean;
  submitLabel: string;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className={className} title={title} description={description}>
        <form
          className="flex flex-col gap-5"
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          {error ? <FormAlert>{error}</FormAlert> : null}
          {children}
          <DialogFooter>
            <Button variant="outline" onClick={() => onClose()}>
              {commonMessages.cancel}
            </Button>
            <Button type="submit" loading={saving}>
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Moves `items[index]` one place up or down its list: `onReorder` gets the list in its new
 * order. The ends disable their button.
 */
export function MoveButtons<T>({
  name,
  items,
  index,
  disabled,
  onReorder,
}: {
  name: string;
  items: readonly T[];
  index: number;
  disabled?: boolean;
  onReorder: (items: T[]) => void;
}) {
  const first = index === 0;
  const last = index === items.length - 1;
  const onMove = (delta: -1 | 1) => onReorder(moved(items, index, delta));
  const classes =
    'inline-flex size-8 cursor-pointer items-center justify-center rounded-full text-neutral-600 hover:bg-neutral-200/70 hover:text-neutral-950 disabled:cursor-default disabled:opacity-30';
  return (
    <div className="flex shrink-0 flex-col">
      <button
        type="button"
        className={classes}
        aria-label={text.moveUp(name)}
        disabled={first || disabled}
        onClick={() => onMove(-1)}
      >
        <ArrowUp aria-hidden="true" className="size-4" />
      </button>
      <button
        type="button"
        className={classes}
        aria-label={text.moveDown(name)}
        disabled={last || disabled}
        onClick={() => onMove(1)}
      >
        <ArrowDown aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}

/** The list with one item moved. */
function moved<T>(items: readonly T[], index: number, delta: -1 | 1): T[] {
  const next = [...items];
  const [item] = next.splice(index, 1);
  next.splice(index + delta, 0, item as T);
  return next;
}

/**
 * A picture upload: a button opens the file chooser, the bar shows the bytes sent, and a refusal
 * shows the server's reason (size, type, dimensions) under the button as well as in a toast.
 */
export function UploadButton({
  label,
  onUpload,
  variant = 'outline',
  size = 'sm',
}: {
  label: string;
  onUpload: (file: File, onProgress: (fraction: number) => void) => Promise<unknown>;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
}) {
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const start = async (file: File) => {
    setError(null);
    setProgress({ name: file.name, fraction: 0 });
    try {
      await onUpload(file, (fraction) => setProgress({ name: file.name, fraction }));
      notify.success(text.uploaded);
    } catch (caught) {
      const message = caught instanceof Error ? caught.message : commonMessages.unexpectedError;
      setError(message);
      notify.error(message);
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
      await invalidateCatalog(queryClient);
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={catalog.acceptedMimeTypes.join(',')}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void start(file);
        }}
        data-testid="upload-input"
      />
      <Button
        variant={variant}
        size={size}
        loading={progress !== null}
        onClick={() => input.current?.click()}
      >
        {progress ? null : <Upload aria-hidden="true" className="size-4" />}
        {label}
      </Button>
      {progress ? (
        <Progress value={progress.fraction * 100} label={text.uploading(progress.name)} showValue />
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-danger-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Delete with a confirmation, since it cannot be undone. */
export function ConfirmDelete({
  label,
  onConfirm,
  trigger,
}: {
  label: string;
  onConfirm: () => void;
  trigger?: ReactNode;
}) {
  return (
    <ConfirmDialog
      trigger={
        trigger ?? (
          <Button variant="ghost" size="sm" aria-label={label}>
            <Trash2 aria-hidden="true" className="size-4" />
          </Button>
        )
      }
      title={text.confirmDelete}
      description={text.confirmDeleteText}
      action={
        <AlertDialogAction variant="destructive" onClick={onConfirm}>
          {commonMessages.delete}
        </AlertDialogAction>
      }
    />
  );
}

/** A labelled checkbox row, for the few on/off fields of the admin forms. */
export function CheckboxField({
  id,
  label,
  checked,
  onChange,
  hint,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
}) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-0.5 size-5 cursor-pointer accent-accent-600"
      />
      <div className="flex flex-col gap-0.5">
        <label htmlFor={id} className="cursor-pointer text-sm font-medium text-neutral-900">
          {label}
        </label>
        {hint ? <p className="text-xs text-neutral-500">{hint}</p> : null}
      </div>
    </div>
  );
}

/** A row's Edit action: an icon on phones, with its label from the medium breakpoint. */
function EditButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <Button variant="ghost" size="sm" onClick={onClick} aria-label={`${text.edit} ${name}`}>
      <Pencil aria-hidden="true" className="size-4" />
      <span className="hidden md:inline">{text.edit}</span>
    </Button>
  );
}

/** A row's Activate / Deactivate action, named after the item it changes. */
function ActiveToggleButton({
  name,
  active,
  loading,
  onToggle,
}: {
  name: string;
  active: boolean;
  loading: boolean;
  onToggle: () => void;
}) {
  const label = active ? text.deactivate : text.activate;
  return (
    <Button
      variant="outline"
      size="sm"
      loading={loading}
      onClick={onToggle}
      aria-label={`${label} ${name}`}
    >
      {label}
    </Button>
  );
}

/** A row's actions: its own first (`children`), then Edit and Activate / Deactivate. */
export function AdminRowActions({
  name,
  active,
  toggling,
  onEdit,
  onToggle,
  children,
}: {
  name: string;
  active: boolean;
  toggling: boolean;
  onEdit: () => void;
  onToggle: () => void;
  children?: ReactNode;
}) {
  return (
    <div className="flex shrink-0 flex-wrap justify-end gap-2">
      {children}
      <EditButton name={name} onClick={onEdit} />
      <ActiveToggleButton name={name} active={active} loading={toggling} onToggle={onToggle} />
    </div>
  );
}
