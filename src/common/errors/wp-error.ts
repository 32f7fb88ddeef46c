/** The error body every route answers with: WP_Error as JSON. */
export interface WpErrorBody {
  code: string;
  message: string;
  data: { status: number; [key: string]: unknown };
}

export function wpError(code: string, message: string, status: number, data: Record<string, unknown> = {}): WpErrorBody {
  return { code, message, data: { ...data, status } };
}
