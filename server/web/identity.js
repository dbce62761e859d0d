// A person's identity in the browser: an Ed25519 key pair made with WebCrypto the first time a
// name is used, kept in IndexedDB (the private key is not extractable: the page can sign with it
// but nobody can read it out), and the proof message the server's challenge asks to sign
// (PROTOCOL.md, "Identities": the same bytes as kingme_shared::identity::proof_message).

const DB = "kingme";
const STORE = "keys";

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function run(db, mode, action) {
  return new Promise((resolve, reject) => {
    const request = action(db.transaction(STORE, mode).objectStore(STORE));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Whether this browser can sign with Ed25519. */
export async function canSign() {
  try {
    await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
    return true;
  } catch {
    return false;
  }
}

/** The key pair of `name`, made and kept on first use; and its public key's 32 bytes. */
export async function keyFor(name) {
  const db = await open();
  let pair = await run(db, "readonly", (store) => store.get(name));
  if (!pair) {
    pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
    await run(db, "readwrite", (store) => store.put(pair, name));
  }
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  return { privateKey: pair.privateKey, publicKey: Array.from(raw) };
}

function text(value) {
  const bytes = new TextEncoder().encode(value);
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, bytes.length, false);
  return [...length, ...bytes];
}

/** The exact bytes a person signs to answer a challenge. */
export function proofMessage(serverId, nonce, name) {
  const domain = [...new TextEncoder().encode("kingme identity proof v3"), 0];
  return new Uint8Array([...domain, ...text(serverId), ...nonce, ...text(name)]);
}

/** The 64-byte signature of the proof, as the array of numbers `Prove` carries. */
export async function prove(privateKey, serverId, nonce, name) {
  const signature = await crypto.subtle.sign(
    { name: "Ed25519" }, privateKey, proofMessage(serverId, nonce, name));
  return Array.from(new Uint8Array(signature));
}
