import type { ErrorCode } from "../contract/problem";

const titles: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

export interface FieldError {
  path: string;
  message: string;
}

/** An error a client can act on. The app's error handler turns it into problem+json. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
  get title(): string {
    return titles[this.status] ?? "Error";
  }
}

export const notFound = (what: string) => new ApiError(404, "not_found", `${what} was not found.`);
export const invalid = (path: string, message: string) =>
  new ApiError(422, "validation_failed", `${path}: ${message}`, { errors: [{ path, message }] });
