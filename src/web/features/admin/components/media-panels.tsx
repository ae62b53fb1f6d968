import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { GoodOrBad } from '../../../../common/api/catalog.ts';
import { adminPageMessages } from '../../../../common/messages/admin.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { catalog } from '../../../../common/product/catalog.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import {
  adminApi,
  adminExamplePhotosQuery,
  adminQuizImagesQuery,
  adminUploads,
} from '../admin-api.ts';
import {
  CheckboxField,
  ConfirmDelete,
  MoveButtons,
  selectClasses,
  UploadButton,
  useAdminAction,
} from './admin-controls.tsx';
import { AdminGrid, AdminTile, AdminTileBadges, PanelHeader, PanelState } from './admin-layout.tsx';

const text = adminPageMessages;

/** The good and bad sample photos of the photo guidelines page. */
export function ExamplePhotosPanel() {
  const query = useQuery(adminExamplePhotosQuery());
  const photos = query.data?.photos ?? [];
  const { run, busy } = useAdminAction();
  const [goodOrBad, setGoodOrBad] = useState<GoodOrBad>('good');
  const [caption, setCaption] = useState('');

  return (
    <section aria-labelledby="admin-examples" className="flex flex-col gap-5">
      <PanelHeader id="admin-examples" title={text.tabs.examplePhotos} />
      <Card className="grid gap-4 p-5 md:grid-cols-[10rem_1fr_auto] md:items-end">
        <FormField id="example-kind" label={`${text.good} / ${text.bad}`}>
          <select
            id="example-kind"
            className={selectClasses}
            value={goodOrBad}
            onChange={(event) => setGoodOrBad(event.target.value as GoodOrBad)}
          >
            <option value="good">{text.good}</option>
            <option value="bad">{text.bad}</option>
          </select>
        </FormField>
        <FormField id="example-caption" label={text.caption}>
          <Input
            id="example-caption"
            value={caption}
            maxLength={catalog.captionMaxLength}
            onChange={(event) => setCaption(event.target.value)}
          />
        </FormField>
        <UploadButton
          label={text.uploadExample}
          size="md"
          onUpload={async (file, onProgress) => {
            await adminUploads.examplePhoto(goodOrBad, caption.trim(), file, onProgress);
            setCaption('');
          }}
        />
      </Card>
      <PanelState query={query} empty={photos.length === 0 ? text.noExamples : null}>
        <AdminGrid>
          {photos.map((photo, index) => (
            <AdminTile
              key={photo.id}
              image={photo.image}
              alt={photo.image.alt || photo.caption}
              aspectRatio="1 / 1"
              active={photo.active}
            >
              <div className="flex flex-1 flex-col gap-2 p-3">
                <AdminTileBadges
                  label={photo.goodOrBad === 'good' ? text.good : text.bad}
                  variant={photo.goodOrBad === 'good' ? 'success' : 'danger'}
                  active={photo.active}
                />
                <CaptionEditor
                  photoId={photo.id}
                  caption={photo.caption}
                  disabled={busy !== null}
                  onSave={(next) =>
                    run(
                      photo.id,
                      () => adminApi.updateExamplePhoto(photo.id, { caption: next }),
                      text.saved,
                    )
                  }
                />
                <div className="mt-auto flex items-center justify-between gap-1">
                  <MoveButtons
                    name={photo.caption || text.tabs.examplePhotos}
                    items={photos}
                    index={index}
                    disabled={busy !== null}
                    onReorder={(next) =>
                      void run('order', () =>
                        adminApi.reorderExamplePhotos(next.map((item) => item.id)),
                      )
                    }
                  />
                  <div className="flex flex-col items-end gap-1">
                    <Button
                      variant="ghost"
                      size="sm"
                      className="h-8 px-2"
                      onClick={() =>
                        void run(photo.id, () =>
                          adminApi.updateExamplePhoto(photo.id, {
                            goodOrBad: photo.goodOrBad === 'good' ? 'bad' : 'good',
                          }),
                        )
                      }
                    >
                      {photo.goodOrBad === 'good' ? text.bad : text.good}
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      className="h-8 px-2"
                      onClick={() =>
                        void run(photo.id, () =>
                          adminApi.updateExamplePhoto(photo.id, { active: !photo.active }),
                        )
                      }
                    >
                      {photo.active ? text.deactivate : text.activate}
                    </Button>
                  </div>
                  <ConfirmDelete
                    label={`${commonMessages.delete} ${photo.caption}`}
                    onConfirm={() =>
                      void run(photo.id, () => adminApi.deleteExamplePhoto(photo.id), text.deleted)
                    }
                  />
                </div>
              </div>
            </AdminTile>
          ))}
        </AdminGrid>
      </PanelState>
    </section>
  );
}

/** An example photo's caption, with Edit to change it in place (Save or Cancel). */
function CaptionEditor({
  photoId,
  caption,
  disabled,
  onSave,
}: {
  photoId: string;
  caption: string;
  disabled: boolean;
  onSave: (caption: string) => Promise<unknown>;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const inputId = `caption-${photoId}`;

  if (draft === null) {
    return (
      <div className="flex items-start justify-between gap-2">
        <p className="line-clamp-2 text-xs text-neutral-600">{caption}</p>
        <Button
          variant="ghost"
          size="sm"
          className="h-7 shrink-0 px-2"
          disabled={disabled}
          aria-label={`${text.edit} ${text.caption}: ${caption}`}
          onClick={() => setDraft(caption)}
        >
          {text.edit}
        </Button>
      </div>
    );
  }
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        // A refused caption (the toast says why) stays open to be corrected.
        void onSave(draft.trim()).then((saved) => {
          if (saved !== undefined) setDraft(null);
        });
      }}
    >
      <FormField id={inputId} label={text.caption}>
        <Input
          id={inputId}
          value={draft}
          maxLength={catalog.captionMaxLength}
          autoFocus
          onChange={(event) => setDraft(event.target.value)}
        />
      </FormField>
      <div className="flex justify-end gap-1">
        <Button variant="ghost" size="sm" className="h-8 px-2" onClick={() => setDraft(null)}>
          {commonMessages.cancel}
        </Button>
        <Button type="submit" size="sm" className="h-8 px-3" loading={disabled}>
          {text.save}
        </Button>
      </div>
    </form>
  );
}

/** The Real or AI? quiz pictures; the quiz shows the first 16 active ones. */
export function QuizImagesPanel() {
  const query = useQuery(adminQuizImagesQuery());
  const images = query.data?.images ?? [];
  const { run } = useAdminAction();
  const [isAi, setIsAi] = useState(true);

  return (
    <section aria-labelledby="admin-quiz" className="flex flex-col gap-5">
      <PanelHeader id="admin-quiz" title={text.tabs.quizImages} />
      <Card className="flex flex-col gap-4 p-5 md:flex-row md:items-center md:justify-between">
        <CheckboxField
          id="quiz-is-ai"
          label={text.isAi}
          hint={text.quizAiHint}
          checked={isAi}
          onChange={setIsAi}
        />
        <UploadButton
          label={text.uploadQuiz}
          size="md"
          onUpload={(file, onProgress) => adminUploads.quizImage(isAi, file, onProgress)}
        />
      </Card>
      <PanelState query={query} empty={images.length === 0 ? text.noQuizImages : null}>
        <AdminGrid>
          {images.map((image, index) => (
            <AdminTile
              key={image.id}
              image={image.image}
              alt={image.image.alt}
              aspectRatio="4 / 5"
              active={image.active}
            >
              <div className="flex flex-col gap-3 p-3">
                <AdminTileBadges
                  label={image.isAi ? text.aiLabel : text.real}
                  variant={image.isAi ? 'accent' : 'neutral'}
                  active={image.active}
                />
                <CheckboxField
                  id={`quiz-ai-${image.id}`}
                  label={`${text.isAi} (${index + 1})`}
                  checked={image.isAi}
                  onChange={(checked) =>
                    void run(image.id, () => adminApi.updateQuizImage(image.id, { isAi: checked }))
                  }
                />
                <div className="flex items-center justify-between gap-2">
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() =>
                      void run(image.id, () =>
                        adminApi.updateQuizImage(image.id, { active: !image.active }),
                      )
                    }
                  >
                    {image.active ? text.deactivate : text.activate}
                  </Button>
                  <ConfirmDelete
                    label={`${commonMessages.delete} ${image.image.alt}`}
                    onConfirm={() =>
                      void run(image.id, () => adminApi.deleteQuizImage(image.id), text.deleted)
                    }
                  />
                </div>
              </div>
            </AdminTile>
          ))}
        </AdminGrid>
      </PanelState>
    </section>
  );
}
