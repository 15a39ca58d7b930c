import type { CombinedError } from 'urql';

/** A field error as the API reports it (`extensions.fields`, the REST field names). */
export interface FieldError {
  field: string;
  message: string;
}

/** The field errors of a failed operation, or [] when it failed otherwise. */
export function fieldErrors(error: CombinedError | undefined): FieldError[] {
  return (error?.graphQLErrors ?? []).flatMap((e) => (Array.isArray(e.extensions.fields) ? (e.extensions.fields as FieldError[]) : []));
}

/** The message to show for a failed operation that is not about one field. */
export function problemOf(error: CombinedError | undefined): string | null {
  if (!error) return null;
  if (error.networkError) return 'The service did not answer: try again.';
  return error.graphQLErrors.map((e) => e.message).join(' ');
}
