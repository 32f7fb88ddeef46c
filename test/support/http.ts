/** Asserts the WP_Error body shape and returns it for further checks. */
export function expectWpError(body: unknown, code: string, status: number): { code: string; message: string; data: Record<string, unknown> } {
  expect(body).toEqual(expect.objectContaining({ code, message: expect.any(String), data: expect.objectContaining({ status }) }));
  return body as { code: string; message: string; data: Record<string, unknown> };
}
