/** Light/dark theme: follows the system unless the user picked one (kept in localStorage). */
import { useEffect, useSyncExternalStore } from "react";

export type ThemeChoice = "system" | "light" | "dark";
const KEY = "spillway.theme";
const listeners = new Set<() => void>();

function readChoice(): ThemeChoice {
  const v = localStorage.getItem(KEY);
  return v === "light" || v === "dark" ? v : "system";
}

function systemDark(): boolean {
  return window.matchMedia("(prefers-color-scheme: dark)").matches;
}

export function resolvedTheme(choice: ThemeChoice = readChoice()): "light" | "dark" {
  return choice === "system" ? (systemDark() ? "dark" : "light") : choice;
}

export function setTheme(choice: ThemeChoice): void {
  if (choice === "system") localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, choice);
  for (const l of listeners) l();
}

function subscribe(cb: () => void): () => void {
  listeners.add(cb);
  const mq = window.matchMedia("(prefers-color-scheme: dark)");
  mq.addEventListener("change", cb);
  return () => {
    listeners.delete(cb);
    mq.removeEventListener("change", cb);
  };
}

/** The theme in effect; keeps `<html data-theme>` in step. */
export function useTheme(): { choice: ThemeChoice; theme: "light" | "dark" } {
  const choice = useSyncExternalStore(subscribe, readChoice);
  const theme = useSyncExternalStore(subscribe, () => resolvedTheme(choice));
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return { choice, theme };
}
