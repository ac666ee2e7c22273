import type { PushPublicKeyResponse } from "../../../shared/schemas/push";
import { apiDelete, apiGet, apiPost } from "../api/client";

/**
 * What this browser can do about web push:
 * - insecure: the page is not on https (or localhost): browsers offer no push there;
 * - install-first: iPhone or iPad in Safari: push works once the app is on the Home Screen;
 * - unsupported: no service worker or Push API;
 * - denied: the person (or the browser) blocked notifications for this site;
 * - off / on: whether this browser has a subscription.
 */
export type PushState = "insecure" | "install-first" | "unsupported" | "denied" | "off" | "on";

function isAppleMobile(): boolean {
  const ua = navigator.userAgent;
  return /iPad|iPhone|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
}

function isStandalone(): boolean {
  return (
    window.matchMedia?.("(display-mode: standalone)").matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

function pushAvailable(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration("/");
  if (existing) return existing;
  await navigator.serviceWorker.register("/sw.js");
  return navigator.serviceWorker.ready;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const existing = await navigator.serviceWorker.getRegistration("/");
  return (await existing?.pushManager.getSubscription()) ?? null;
}

export async function readPushState(): Promise<PushState> {
  if (!window.isSecureContext) return "insecure";
  if (!pushAvailable()) return isAppleMobile() && !isStandalone() ? "install-first" : "unsupported";
  if (Notification.permission === "denied") return "denied";
  if (Notification.permission !== "granted") return "off";
  return (await currentSubscription()) ? "on" : "off";
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/** Asks for permission (the browser's own prompt), subscribes and tells the server. */
export async function turnPushOn(): Promise<PushState> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission === "denied" ? "denied" : "off";
  const { publicKey } = await apiGet<PushPublicKeyResponse>("/api/push/public-key");
  const worker = await registration();
  let subscription = await worker.pushManager.getSubscription();
  const serverKey = keyBytes(publicKey);
  // A subscription made with another server key (the keys were replaced) cannot be used.
  const sameKey =
    subscription?.options.applicationServerKey &&
    new Uint8Array(subscription.options.applicationServerKey).join() === serverKey.join();
  if (subscription && !sameKey) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await worker.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: serverKey,
  });
  await apiPost("/api/push/subscriptions", subscription.toJSON());
  return "on";
}

/** Unsubscribes this browser and tells the server. */
export async function turnPushOff(): Promise<PushState> {
  const subscription = await currentSubscription();
  if (subscription) {
    await apiDelete("/api/push/subscriptions", { endpoint: subscription.endpoint });
    await subscription.unsubscribe();
  }
  return readPushState();
}

/** On each start with notifications on: the server learns this subscription again (new session). */
export async function syncPushSubscription(): Promise<void> {
  const subscription = await currentSubscription();
  if (subscription) await apiPost("/api/push/subscriptions", subscription.toJSON());
}
