/**
 * The spelling that decides whether two e-mail addresses are one account's: trimmed and lower-cased. Mail
 * providers treat the local part case-insensitively in practice, so `Ann@x.io` and `ann@x.io` are one person
 * (docs/decisions/0001-case-insensitive-emails.md).
 */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}
