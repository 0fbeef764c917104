/**
 * The fixed subset of face landmarks every FrameObservation carries, in this order. It mixes points
 * near the plane of the face outline (cheeks, jaw, temples, forehead) with points that stand out of it
 * (nose tip, nose bridge, chin), so that a head turning moves them by different amounts (parallax)
 * while a picture moves them all by one homography. "left"/"right" are as seen in the image.
 */
export const LIVENESS_LANDMARKS = [
  'nose_tip',
  'nose_bridge',
  'chin',
  'forehead',
  'eye_outer_image_left',
  'eye_inner_image_left',
  'eye_inner_image_right',
  'eye_outer_image_right',
  'mouth_image_left',
  'mouth_image_right',
  'cheek_image_left',
  'cheek_image_right',
  'temple_image_left',
  'temple_image_right',
  'jaw_image_left',
  'jaw_image_right',
  'jaw_low_image_left',
  'jaw_low_image_right',
  'brow_image_left',
  'brow_image_right',
] as const;
export type LivenessLandmark = (typeof LIVENESS_LANDMARKS)[number];

/** Index of a landmark in FrameObservation.landmarks. */
export const landmarkIndex = (name: LivenessLandmark): number => LIVENESS_LANDMARKS.indexOf(name);
