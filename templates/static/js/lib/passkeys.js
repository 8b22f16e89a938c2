// WebAuthn in the browser: the service's JSON options (base64url fields) to the browser's
// ArrayBuffers and the credential back to JSON (what PublicKeyCredential.toJSON() gives).

const toBytes = (text) => {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
};

const toText = (buffer) => {
  if (!buffer) return null;
  const bytes = new Uint8Array(buffer);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

const descriptors = (list) => (list || []).map((d) => ({ ...d, id: toBytes(d.id) }));

// A credential as PublicKeyCredential.toJSON() gives it: `fields` are its response's own.
const asJson = (credential, fields) => ({
  id: credential.id,
  rawId: toText(credential.rawId),
  type: credential.type,
  response: { clientDataJSON: toText(credential.response.clientDataJSON), ...fields },
  clientExtensionResults: credential.getClientExtensionResults(),
});

export const supported = () => typeof window.PublicKeyCredential === "function";

export async function create(options) {
  const credential = await navigator.credentials.create({
    publicKey: {
      ...options,
      challenge: toBytes(options.challenge),
      user: { ...options.user, id: toBytes(options.user.id) },
      excludeCredentials: descriptors(options.excludeCredentials),
    },
  });
  const r = credential.response;
  return asJson(credential, {
    attestationObject: toText(r.attestationObject),
    transports: r.getTransports ? r.getTransports() : [],
  });
}

export async function get(options) {
  const credential = await navigator.credentials.get({
    publicKey: {
      ...options,
      challenge: toBytes(options.challenge),
      allowCredentials: descriptors(options.allowCredentials),
    },
  });
  const r = credential.response;
  return asJson(credential, {
    authenticatorData: toText(r.authenticatorData),
    signature: toText(r.signature),
    userHandle: toText(r.userHandle),
  });
}
