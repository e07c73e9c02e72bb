/**
 * Dates in e-mails, written out here rather than by ICU's locale data, which differs between Node
 * versions (Node 20 writes Korean time as `AM 9:30`, Node 22+ as `오전 9:30`). ICU only supplies the
 * numbers in the time zone. English shows UTC, Korean shows Korean time, labelled either way.
 */
import type { EmailLanguageId } from '../email-kinds.js';

const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DATE_PARTS = (timeZone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit', hourCycle: 'h23' });
const DATE_FORMATS: Record<
  EmailLanguageId,
  { parts: Intl.DateTimeFormat; write(d: { year: number; month: number; day: number; hour: number; minute: string }): string }
> = {
  // 1 March 2027 at 00:30 UTC
  1: { parts: DATE_PARTS('UTC'), write: (d) => `${d.day} ${EN_MONTHS[d.month - 1]} ${d.year} at ${String(d.hour).padStart(2, '0')}:${d.minute} UTC` },
  // 2027년 3월 1일 오전 9:30 (한국 시간)
  2: {
    parts: DATE_PARTS('Asia/Seoul'),
    write: (d) => `${d.year}년 ${d.month}월 ${d.day}일 ${d.hour < 12 ? '오전' : '오후'} ${d.hour % 12 || 12}:${d.minute} (한국 시간)`,
  },
};

/** A date as the e-mails write it; the pages e-mails link to write it so too (the renewal links' pages). */
export function formatDate(languageId: EmailLanguageId, date: Date): string {
  const { parts, write } = DATE_FORMATS[languageId];
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.formatToParts(date).find((entry) => entry.type === type)?.value ?? '';
  return write({ year: Number(part('year')), month: Number(part('month')), day: Number(part('day')), hour: Number(part('hour')) % 24, minute: part('minute') });
}
