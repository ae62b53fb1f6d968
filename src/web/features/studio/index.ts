// What the studio offers the other features, and the only file of it they import (decision 045):
// the rest of this folder may change without them. src/web/app composes features and may import
// any of their files.

// The user's AI models, to generate with, and how each model's status reads.
export { modelsQueryOptions } from './studio-api.ts';
export { modelStatusView } from './model-status.ts';
// The account page's setting: keep the training photos after training or not.
export { TrainingPhotosSetting } from './components/training-photos-setting.tsx';
