/**
 * How the built-in routes answer and log their failures: a coded failure with its own status
 * and code, a failed success handler with its code or `callback_handler_failed`, and the two
 * refusals of a link (`invalid_intent`, `session_required`).
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import {
  type CodedFailure,
  codedFailureResponse,
  isCodedFailure,
} from "../../http/CodedFailure.js";
import { causeToResponse } from "../../http/ErrorResponse.js";
import {
  type OAuthError,
  TooManyTransactions,
  tooManyTransactionsResponse,
} from "../OAuthError.js";
import { HANDLER_FAILED } from "../RedirectPolicy.js";
import type { ProviderName } from "../SupportedProvider.js";

/**
 * A failure's response: a {@link CodedFailure} (a full store) with its own status and code, a
 * client over its transactions with `Retry-After` too.
 */
export const failureResponse = (cause: Cause.Cause<unknown>) => {
  const failure = Cause.failureOption(cause);
  if (Option.isNone(failure)) return causeToResponse(cause);
  if (failure.value instanceof TooManyTransactions) {
    return Effect.succeed(tooManyTransactionsResponse(failure.value));
  }
  return isCodedFailure(failure.value)
    ? Effect.succeed(codedFailureResponse(failure.value))
    : causeToResponse(cause);
};

/** The `error` code a failed handler is redirected with: its own, else {@link HANDLER_FAILED}. */
export const handlerFailureCode = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.failureOption(cause);
  return Option.isSome(failure) && isCodedFailure(failure.value)
    ? failure.value.code
    : HANDLER_FAILED;
};

/**
 * The log line of a failed success handler that is answered with a redirect (an answered one is
 * logged by the error mapper): a warning with its code for a failure the handler meant (an
 * account linked to another user), an error with its cause for anything else.
 */
export const logHandlerFailure = (cause: Cause.Cause<unknown>, redirected: boolean) => {
  if (!redirected) return Effect.void;
  const code = handlerFailureCode(cause);
  return code === HANDLER_FAILED
    ? Effect.logError("OAuth callback handler failed", cause)
    : Effect.logWarning("OAuth callback handler refused the sign-in").pipe(
        Effect.annotateLogs("error", code),
      );
};

/** A link started with another intent than `link`, or where linking is not enabled. */
export const invalidIntent: CodedFailure = {
  httpStatus: 400,
  code: "invalid_intent",
  publicMessage: "Invalid intent",
};

/** A link started, or completed, without a session. */
export const sessionRequired: CodedFailure = {
  httpStatus: 401,
  code: "session_required",
  publicMessage: "Sign in before linking an account",
};

/** The safe fields of an error for the log: tags, names, statuses, standard codes. */
const logFields = (error: OAuthError): Record<string, unknown> => {
  const fields: Record<string, unknown> = { error: error.code };
  for (const key of ["provider", "reason", "status", "oauthError", "detail", "operation"]) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (value !== undefined) fields[key] = value;
  }
  return fields;
};

/** The warning of a failed callback: its code and safe fields, nothing the client sent. */
export const logFailure = (error: OAuthError, provider: ProviderName) =>
  Effect.logWarning("OAuth callback failed").pipe(
    Effect.annotateLogs({ provider, ...logFields(error) }),
  );
