/**
 * The choice for the payment page (spec section 3: platformId, typeId, durationId, 1 before a
 * platform page sets them), mirrored in sessionStorage so it survives the login redirect and
 * a social login's round trip.
 */
import { STORAGE_KEYS, readItem, writeItem } from '../../services/storage';

export interface Selection {
  platformId: number;
  typeId: number;
  durationId: number;
}

export const DEFAULT_SELECTION: Selection = { platformId: 1, typeId: 1, durationId: 1 };

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;

export function loadSelection(): Selection {
  const raw = readItem(STORAGE_KEYS.selection, 'session');
  if (!raw) return { ...DEFAULT_SELECTION };
  try {
    const value = JSON.parse(raw) as Partial<Selection> | null;
    if (value && isId(value.platformId) && isId(value.typeId) && isId(value.durationId)) {
      return { platformId: value.platformId, typeId: value.typeId, durationId: value.durationId };
    }
  } catch {
    // A damaged entry is ignored: the defaults apply.
  }
  return { ...DEFAULT_SELECTION };
}

export function saveSelection(selection: Selection): void {
  const { platformId, typeId, durationId } = selection;
  writeItem(STORAGE_KEYS.selection, JSON.stringify({ platformId, typeId, durationId }), 'session');
}
