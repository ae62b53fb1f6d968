import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Images, Plus, Star } from 'lucide-react';
import type { AdminCategory, AdminPreset } from '../../../../common/api/admin.ts';
import { adminPageMessages } from '../../../../common/messages/admin.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { catalog } from '../../../../common/product/catalog.ts';
import { Image } from '../../../components/image.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogCloseFooter, DialogContent } from '../../../components/ui/dialog.tsx';
import { FormField, fieldHintId } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { adminApi, adminCategoriesQuery, adminPresetsQuery, adminUploads } from '../admin-api.ts';
import {
  AdminFormDialog,
  AdminRowActions,
  ConfirmDelete,
  MoveButtons,
  selectClasses,
  UploadButton,
  useAdminAction,
  useAdminSave,
} from './admin-controls.tsx';
import {
  AdminList,
  AdminListRow,
  AdminRowTitle,
  PanelHeader,
  PanelState,
} from './admin-layout.tsx';

const text = adminPageMessages;

export function PresetsPanel() {
  const categoriesQuery = useQuery(adminCategoriesQuery());
  const categories = categoriesQuery.data?.categories ?? [];
  const [chosen, setChosen] = useState('');
  const category = chosen || categories[0]?.manualId || '';
  const query = useQuery(adminPresetsQuery(category));
  const presets = query.data?.presets ?? [];
  const { run, busy } = useAdminAction();
  const [editing, setEditing] = useState<AdminPreset | 'new' | null>(null);
  const [picturesOf, setPicturesOf] = useState<string | null>(null);
  const picturesPreset = presets.find((preset) => preset.id === picturesOf) ?? null;

  return (
    <section aria-labelledby="admin-presets" className="flex flex-col gap-5">
      <PanelHeader
        id="admin-presets"
        title={text.tabs.presets}
        action={
          <Button size="sm" onClick={() => setEditing('new')} disabled={!category}>
            <Plus aria-hidden="true" className="size-4" />
            {text.newPreset}
          </Button>
        }
      />
      <div className="flex max-w-sm flex-col gap-2">
        <Label htmlFor="preset-category-filter">{text.category}</Label>
        <select
          id="preset-category-filter"
          className={selectClasses}
          value={category}
          onChange={(event) => setChosen(event.target.value)}
        >
          {categories.map((item) => (
            <option key={item.manualId} value={item.manualId}>
              {item.emoji ? `${item.emoji} ` : ''}
              {item.displayName}
              {item.active ? '' : ` (${text.inactive})`}
            </option>
          ))}
        </select>
      </div>
      <PanelState
        query={category ? query : categoriesQuery}
        empty={!category ? text.noCategories : presets.length === 0 ? text.noPresets : null}
      >
        <AdminList>
          {presets.map((preset, index) => (
            <AdminListRow key={preset.id} dimmed={!preset.active}>
              <MoveButtons
                name={preset.displayName}
                items={presets}
                index={index}
                disabled={busy !== null}
                onReorder={(next) =>
                  void run('order', () =>
                    adminApi.reorderPresets(
                      category,
                      next.map((item) => item.id),
                    ),
                  )
                }
              />
              <Image
                src={preset.featuredImage?.variants[0]?.src ?? preset.featuredImage?.src}
                alt={preset.displayName}
                width={48}
                height={60}
                className="w-12 shrink-0 rounded-control"
              />
              <div className="flex min-w-0 flex-1 basis-40 flex-col gap-1">
                <AdminRowTitle name={preset.displayName} active={preset.active} />
                <p className="line-clamp-1 text-xs text-neutral-500">
                  {preset.manualId} ·{' '}
                  {text.pictureCount(
                    (preset.featuredImage ? 1 : 0) + preset.additionalImages.length,
                  )}
                </p>
              </div>
              <AdminRowActions
                name={preset.displayName}
                active={preset.active}
                toggling={busy === preset.id}
                onEdit={() => setEditing(preset)}
                onToggle={() =>
                  void run(
                    preset.id,
                    () => adminApi.updatePreset(preset.id, { active: !preset.active }),
                    text.saved,
                  )
                }
              >
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setPicturesOf(preset.id)}
                  aria-label={text.manageImages(preset.displayName)}
                >
                  <Images aria-hidden="true" className="size-4" />
                  <span className="hidden md:inline">{text.images}</span>
                </Button>
              </AdminRowActions>
            </AdminListRow>
          ))}
        </AdminList>
      </PanelState>
      {editing ? (
        <PresetDialog
          preset={editing === 'new' ? null : editing}
          categories={categories}
          defaultCategory={category}
          onClose={(created) => {
            setEditing(null);
            // A new preset needs its pictures next: go straight there.
            if (created) {
              setChosen(created.categoryId);
              setPicturesOf(created.id);
            }
          }}
        />
      ) : null}
      {picturesPreset ? (
        <PresetImagesDialog preset={picturesPreset} onClose={() => setPicturesOf(null)} />
      ) : null}
    </section>
  );
}

function PresetDialog({
  preset,
  categories,
  defaultCategory,
  onClose,
}: {
  preset: AdminPreset | null;
  categories: AdminCategory[];
  defaultCategory: string;
  onClose: (created?: AdminPreset) => void;
}) {
  const { save, saving, error } = useAdminSave();
  const [categoryId, setCategoryId] = useState(preset?.categoryId ?? defaultCategory);
  const [displayName, setDisplayName] = useState(preset?.displayName ?? '');
  const [manualId, setManualId] = useState(preset?.manualId ?? '');
  const [description, setDescription] = useState(preset?.description ?? '');
  const [prompt, setPrompt] = useState(preset?.prompt ?? '');

  const submit = async () => {
    const body = {
      categoryId,
      displayName: displayName.trim(),
      description: description.trim(),
      prompt: prompt.trim(),
      ...(manualId.trim() ? { manualId: manualId.trim() } : {}),
    };
    const result = await save(
      () => (preset ? adminApi.updatePreset(preset.id, body) : adminApi.createPreset(body)),
      preset ? text.saved : text.created,
    );
    if (result) onClose(preset ? undefined : result.preset);
  };

  return (
    <AdminFormDialog
      className="md:max-w-xl"
      title={preset ? text.editPreset : text.newPreset}
      description={preset?.displayName ?? text.subtitle}
      error={error}
      saving={saving}
      submitLabel={preset ? text.save : text.create}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <FormField id="preset-category" label={text.category}>
        <select
          id="preset-category"
          className={selectClasses}
          value={categoryId}
          onChange={(event) => setCategoryId(event.target.value)}
        >
          {categories.map((item) => (
            <option key={item.manualId} value={item.manualId}>
              {item.displayName}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id="preset-name" label={text.displayName}>
        <Input
          id="preset-name"
          required
          maxLength={catalog.displayNameMaxLength}
          value={displayName}
          onChange={(event) => setDisplayName(event.target.value)}
          autoComplete="off"
        />
      </FormField>
      <FormField id="preset-key" label={text.key} hint={text.presetKeyHint}>
        <Input
          id="preset-key"
          value={manualId}
          onChange={(event) => setManualId(event.target.value)}
          aria-describedby={fieldHintId('preset-key')}
          autoComplete="off"
        />
      </FormField>
      <FormField id="preset-description" label={text.description}>
        <Textarea
          id="preset-description"
          rows={3}
          maxLength={catalog.descriptionMaxLength}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </FormField>
      <FormField id="preset-prompt" label={text.prompt} hint={text.promptHint}>
        <Textarea
          id="preset-prompt"
          required
          rows={4}
          maxLength={catalog.promptMaxLength}
          value={prompt}
          onChange={(event) => setPrompt(event.target.value)}
          aria-describedby={fieldHintId('preset-prompt')}
        />
      </FormField>
    </AdminFormDialog>
  );
}

function PresetImagesDialog({ preset, onClose }: { preset: AdminPreset; onClose: () => void }) {
  const { run, busy } = useAdminAction();
  const featured = preset.featuredImage;

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        className="md:max-w-2xl"
        title={text.manageImages(preset.displayName)}
        description={text.uploadHint}
      >
        <section aria-labelledby="featured-picture" className="flex flex-col gap-3">
          <h3 id="featured-picture" className="text-sm font-semibold text-neutral-900">
            {text.featuredImage}
          </h3>
          <div className="flex flex-wrap items-end gap-4">
            <Image
              src={featured?.variants[0]?.src ?? featured?.src}
              alt={featured ? preset.displayName : text.noImage}
              width={128}
              height={160}
              className="w-32 rounded-control"
            />
            <UploadButton
              label={featured ? text.replaceFeatured : text.uploadFeatured}
              onUpload={(file, onProgress) =>
                adminUploads.presetImage(preset.id, 'featured', file, onProgress)
              }
            />
          </div>
        </section>

        <section aria-labelledby="additional-pictures" className="flex flex-col gap-3">
          <h3 id="additional-pictures" className="text-sm font-semibold text-neutral-900">
            {text.additionalImages}
          </h3>
          {preset.additionalImages.length > 0 ? (
            <ul className="grid grid-cols-2 gap-3 md:grid-cols-4">
              {preset.additionalImages.map((image, index) => (
                <li key={image.id} className="flex flex-col gap-2">
                  <Image
                    src={image.variants[0]?.src ?? image.src}
                    alt={`${preset.displayName} ${index + 2}`}
                    width={image.variants[0]?.width ?? image.width}
                    height={image.variants[0]?.height ?? image.height}
                    aspectRatio="4 / 5"
                    className="w-full rounded-control"
                  />
                  <div className="flex items-center justify-between gap-1">
                    <Button
                      variant="ghost"
                      size="sm"
                      className="px-2"
                      loading={busy === `feature-${image.id}`}
                      onClick={() =>
                        void run(
                          `feature-${image.id}`,
                          () => adminApi.featurePresetImage(preset.id, image.id),
                          text.saved,
                        )
                      }
                    >
                      <Star aria-hidden="true" className="size-4" />
                      {text.makeFeatured}
                    </Button>
                    <ConfirmDelete
                      label={`${text.deleteImage} ${index + 2}`}
                      onConfirm={() =>
                        void run(
                          `delete-${image.id}`,
                          () => adminApi.deletePresetImage(preset.id, image.id),
                          text.deleted,
                        )
                      }
                    />
                  </div>
                </li>
              ))}
            </ul>
          ) : null}
          <UploadButton
            label={text.uploadAdditional}
            onUpload={(file, onProgress) =>
              adminUploads.presetImage(preset.id, 'additional', file, onProgress)
            }
          />
        </section>

        <DialogCloseFooter label={commonMessages.close} />
      </DialogContent>
    </Dialog>
  );
}
