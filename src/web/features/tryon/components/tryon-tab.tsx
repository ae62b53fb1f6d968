import { useEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Images, Lock, Shirt, Sparkles, User } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import type { Generation } from '../../../../common/api/generation.ts';
import { dashboardMessages } from '../../../../common/messages/dashboard.ts';
import { tryonMessages } from '../../../../common/messages/tryon.ts';
import { routes } from '../../../../common/product/routes.ts';
import { timings } from '../../../../common/product/timings.ts';
import { Button } from '../../../components/ui/button.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { StickyActionBar } from '../../../components/ui/sticky-action-bar.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { sessionQueryKey, useSession } from '../../../lib/session.ts';
import {
  putTryOn,
  registerTryOnEventHandlers,
  startTryOn,
  tryOnQueryKeys,
  type TryOnPerson,
} from '../tryon-api.ts';
import {
  checkTryOnStart,
  fileProblem,
  isTryOnLocked,
  startFailureMessage,
  startedMessage,
  tryOnUpgradePath,
} from '../tryon-rules.ts';
import { GeneratedPickerDialog } from './generated-picker-dialog.tsx';
import { ImageSlot, useObjectUrl } from './image-slot.tsx';
import { TryOnResults } from './tryon-results.tsx';

const text = tryonMessages;

type PersonChoice = { kind: 'upload'; file: File } | { kind: 'generation'; generation: Generation };

interface StartProblem {
  message: string;
  to?: string;
}

/**
 * The dashboard's Try-On tab: a person picture (an upload or one of the user's generated images)
 * and a garment upload, Start Try-On, and the results. Without a Pro, Premium or Enterprise plan
 * the controls stay visible but locked, with the way to upgrade.
 */
export function TryOnTab() {
  const { status, subscription } = useSession();
  const locked = isTryOnLocked(subscription);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const [person, setPerson] = useState<PersonChoice | null>(null);
  const [garment, setGarment] = useState<File | null>(null);
  const [personError, setPersonError] = useState<string | null>(null);
  const [garmentError, setGarmentError] = useState<string | null>(null);
  const [problem, setProblem] = useState<StartProblem | null>(null);
  const [pickerOpen, setPickerOpen] = useState(false);
  const personUrl = useObjectUrl(person?.kind === 'upload' ? person.file : null);
  const garmentUrl = useObjectUrl(garment);

  useEffect(() => registerTryOnEventHandlers(), []);

  // The specification's reload 2 s after a start; events usually arrive first.
  const reloadTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(reloadTimer.current), []);

  const start = useMutation({
    mutationFn: (input: { person: TryOnPerson; garment: File }) =>
      startTryOn(input.person, input.garment),
    onSuccess: ({ tryOn }) => {
      putTryOn(queryClient, tryOn);
      notify.success(startedMessage(tryOn.status));
      setGarment(null);
      clearTimeout(reloadTimer.current);
      reloadTimer.current = setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: tryOnQueryKeys.all });
      }, timings.tryOnReloadMs);
    },
    onError: (error) => {
      const message = startFailureMessage(error);
      if (isApiError(error, 'TIER_REQUIRED') || isApiError(error, 'SUBSCRIPTION_REQUIRED'))
        setProblem({ message, to: tryOnUpgradePath });
      else if (isApiError(error, 'INSUFFICIENT_CREDITS'))
        setProblem({ message, to: routes.buyCredits });
      else setProblem({ message });
      notify.error(message);
    },
    onSettled: () => {
      // The credit was spent (or the plan turned out to have changed): the balance is stale.
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });

  function chooseFile(file: File, slot: 'person' | 'garment') {
    const fileError = fileProblem(file);
    setProblem(null);
    if (slot === 'person') {
      setPersonError(fileError);
      if (!fileError) setPerson({ kind: 'upload', file });
    } else {
      setGarmentError(fileError);
      if (!fileError) setGarment(file);
    }
  }

  function submit() {
    const check = checkTryOnStart({
      subject:
        status === 'signed-in'
          ? {
              active: subscription?.active === true,
              tier: subscription?.tier ?? 'none',
              credits: subscription?.credits ?? 0,
            }
          : null,
      hasPerson: person !== null,
      hasGarment: garment !== null,
    });
    if (!check.ok) {
      if (check.issue === 'signIn') {
        void navigate(routes.login);
        return;
      }
      setProblem({ message: check.message, to: check.to });
      return;
    }
    if (!person || !garment) return;
    setProblem(null);
    start.mutate({
      person:
        person.kind === 'upload'
          ? { kind: 'upload', file: person.file }
          : { kind: 'generation', id: person.generation.id },
      garment,
    });
  }

  const busy = start.isPending;
  const controlsDisabled = locked || busy;

  return (
    <div className="flex flex-col gap-10">
      {/* On a phone: tighter, the subtitle left to the slots' own titles, Start Try-On in a bar at
          the bottom of the screen, so the person slot and the button share the first screen. */}
      <section aria-labelledby="tryon-title" className="flex flex-col gap-4 md:gap-6">
        <div className="flex flex-col gap-2">
          <h2 id="tryon-title" className="text-2xl font-semibold text-neutral-950">
            {text.title}
          </h2>
          <p className="text-neutral-600 max-md:hidden">{text.subtitle}</p>
        </div>

        {locked ? <TryOnGate /> : null}

        <div className="grid gap-5 md:grid-cols-2">
          <ImageSlot
            id="tryon-person"
            icon={<User />}
            title={text.personImage}
            uploadLabel={text.uploadPerson}
            removeLabel={text.removePerson}
            disabled={controlsDisabled}
            error={personError}
            picture={
              person?.kind === 'upload'
                ? { src: personUrl, alt: text.personPreviewAlt, caption: person.file.name }
                : person?.kind === 'generation'
                  ? {
                      src: person.generation.imageUrl ?? person.generation.thumbnailUrl,
                      alt: text.personPreviewAlt,
                      caption: text.fromGenerated,
                    }
                  : null
            }
            onFile={(file) => chooseFile(file, 'person')}
            onClear={() => {
              setPerson(null);
              setPersonError(null);
            }}
            extraAction={
              <Button
                variant="outline"
                disabled={controlsDisabled}
                onClick={() => setPickerOpen(true)}
                className="max-md:w-full"
              >
                <Images aria-hidden="true" className="size-4" />
                {text.chooseGenerated}
              </Button>
            }
          />
          <ImageSlot
            id="tryon-garment"
            icon={<Shirt />}
            title={text.garmentImage}
            uploadLabel={text.uploadGarment}
            removeLabel={text.removeGarment}
            disabled={controlsDisabled}
            error={garmentError}
            picture={
              garment
                ? { src: garmentUrl, alt: text.garmentPreviewAlt, caption: garment.name }
                : null
            }
            onFile={(file) => chooseFile(file, 'garment')}
            onClear={() => {
              setGarment(null);
              setGarmentError(null);
            }}
          />
        </div>

        <StickyActionBar
          data-testid="tryon-start-bar"
          className="flex flex-col gap-2 md:flex-row md:items-center md:justify-between md:gap-4 md:rounded-card md:bg-neutral-100/70 md:p-5"
        >
          <div className="flex flex-col gap-1 text-sm text-neutral-700 max-md:hidden">
            <p>{text.duration}</p>
            <p className="text-neutral-600">{text.costNote}</p>
          </div>
          <Button
            size="lg"
            onClick={submit}
            loading={busy}
            disabled={locked}
            className="md:min-w-48"
          >
            {busy ? null : <Sparkles aria-hidden="true" className="size-4" />}
            {busy ? text.starting : text.start}
          </Button>
          <p className="text-center text-xs text-neutral-500 md:hidden">{text.costNote}</p>
        </StickyActionBar>

        {problem ? (
          <FormAlert>
            <p>{problem.message}</p>
            {problem.to ? (
              <Link to={problem.to} className="mt-1 inline-block font-medium underline">
                {problem.to === routes.buyCredits
                  ? dashboardMessages.buyMoreCredits
                  : dashboardMessages.choosePlan}
              </Link>
            ) : null}
          </FormAlert>
        ) : null}
      </section>

      <TryOnResults />

      <GeneratedPickerDialog
        open={pickerOpen}
        onOpenChange={setPickerOpen}
        selectedId={person?.kind === 'generation' ? person.generation.id : null}
        onPick={(generation) => {
          setPerson({ kind: 'generation', generation });
          setPersonError(null);
          setProblem(null);
          setPickerOpen(false);
        }}
      />
    </div>
  );
}

/** Shown above the locked controls: why they are locked and the way to unlock them. */
function TryOnGate() {
  return (
    <div
      data-testid="tryon-gate"
      className="flex flex-col gap-4 rounded-card border border-accent-200 bg-accent-50 p-5 md:flex-row md:items-center md:justify-between md:p-6"
    >
      <div className="flex items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-white text-accent-700 shadow-sm">
          <Lock aria-hidden="true" className="size-5" />
        </span>
        <div className="flex flex-col gap-1">
          <h3 className="text-base font-semibold text-neutral-950">{text.upgradeRequired}</h3>
          <p className="text-sm font-medium text-accent-800">{text.proNeeded}</p>
          <p className="text-sm text-neutral-700">{text.gateText}</p>
        </div>
      </div>
      <div className="flex flex-wrap gap-3">
        <Button asChild variant="ghost">
          <Link to={routes.tryOn}>{text.seeHowItWorks}</Link>
        </Button>
        <Button asChild>
          <Link to={tryOnUpgradePath}>{text.upgrade}</Link>
        </Button>
      </div>
    </div>
  );
}
