/**
 * A backing service the API cannot answer without, checked by `/health`. `check` must be cheap (one
 * small read) and reject when the service cannot answer; it never changes anything.
 */
export interface DependencyProbe {
  /** Shown in the `/health` body, e.g. `dynamodb`. */
  readonly name: string;
  check(): Promise<void>;
}
