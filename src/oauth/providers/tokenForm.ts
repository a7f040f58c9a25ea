/**
 * arctic's token request, for the requests its `OAuth2Client` cannot make at overridden
 * endpoints: client_secret_post (facebook) and a public client's `Origin` header (microsoft).
 *
 * @since 0.1.0
 */
import {
  ArcticFetchError,
  OAuth2RequestError,
  OAuth2Tokens,
  UnexpectedErrorResponseBodyError,
  UnexpectedResponseError,
} from "arctic";

/**
 * arctic's token request for the requests `OAuth2Client` cannot make (client_secret_post, an
 * extra header): the same headers and the same reading of the answer as arctic's own (not
 * exported) `sendTokenRequest`, failing with arctic's error classes.
 */
export const sendTokenForm = async (
  endpoint: string,
  body: URLSearchParams,
  headers: Readonly<Record<string, string>> = {},
): Promise<OAuth2Tokens> => {
  const bytes = new TextEncoder().encode(body.toString());
  const response = await fetch(endpoint, {
    method: "POST",
    body: bytes,
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
      "user-agent": "arctic",
      "content-length": String(bytes.byteLength),
      ...headers,
    },
  }).catch((cause: unknown) => Promise.reject(new ArcticFetchError(cause)));
  const { status } = response;
  if (status !== 200 && status !== 400 && status !== 401) {
    await response.body?.cancel();
    return Promise.reject(new UnexpectedResponseError(status));
  }
  const data: unknown = await response
    .json()
    .catch(() => Promise.reject(new UnexpectedResponseError(status)));
  if (typeof data !== "object" || data === null) {
    return Promise.reject(new UnexpectedErrorResponseBodyError(status, data));
  }
  if (status === 200) return new OAuth2Tokens(data);
  const error = (data as { error?: unknown }).error;
  return Promise.reject(
    typeof error === "string"
      ? new OAuth2RequestError(error, null, null, null)
      : new UnexpectedErrorResponseBodyError(status, data),
  );
};
