// REST calls to the lobby. Every failure becomes an ApiError with the server's plain message.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError("offline", "The server cannot be reached. Check your connection and try again.", 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = data && data.error ? data.error : { code: "bad_response", message: `The server answered ${response.status}.` };
    throw new ApiError(err.code, err.message, response.status);
  }
  return data;
}

const CODE_CHARS = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/;

/** A room code as typed by a person: spaces and dashes dropped, upper case. */
export function normalizeCode(text) {
  return String(text || "").replace(/[\s-]/g, "").toUpperCase();
}

export function isCode(text) {
  return CODE_CHARS.test(text);
}
