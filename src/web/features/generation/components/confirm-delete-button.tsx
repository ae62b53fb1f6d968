import { commonMessages } from '../../../../common/messages/shell.ts';
import { Button } from '../../../components/ui/button.tsx';

/**
 * The answer of a dialog that deletes generations (one image, a selection): it says Deleting…
 * until the server answers and the caller closes the dialog. Not an AlertDialogAction: that would
 * close the dialog before the answer arrives.
 */
export function ConfirmDeleteButton({
  label,
  deleting,
  onDelete,
}: {
  label: string;
  deleting: boolean;
  onDelete: () => void;
}) {
  return (
    <Button variant="destructive" loading={deleting} onClick={onDelete}>
      {deleting ? commonMessages.deleting : label}
    </Button>
  );
}
