/**
 * The catalog editor's state (issue 15): the list of platforms, the platform open in the editor
 * (as the server last answered it, with its version), a save under way, the conflict a stale save
 * met (409: what changed, and the platform as saved now), and the logo uploads. The form's values
 * live in Formik. Injected into the store when the admin chunk loads.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '../../../app/rootReducer';
import type { CatalogConflict, CatalogListItem, EditablePlatform, UploadAnswer } from '../../../services/api/catalogAdmin';
import type { CreatePlatformBody } from '../../../services/api/catalogAdmin';

export type LoadStatus = 'idle' | 'loading' | 'loaded' | 'failed' | 'notFound';
export type LogoField = 'logoBase' | 'logoCarousel';

export interface UploadState {
  status: 'idle' | 'uploading' | 'done' | 'failed';
  /** Set when done: the URL the form takes. */
  answer: UploadAnswer | null;
  /** The server's refusal, as shown. */
  error: string | null;
}

export interface CatalogEditorState {
  /** `retryable`: after a failure, whether trying again may help (no answer, or a 5xx; not a 4xx). */
  list: { rows: CatalogListItem[]; status: LoadStatus; toggling: number[]; retryable: boolean };
  editor: {
    /** null: a new platform. */
    id: number | null;
    status: LoadStatus;
    retryable: boolean;
    platform: EditablePlatform | null;
    /** Counts loads of the server's version: the form starts from it again after each. */
    loads: number;
    saving: boolean;
    conflict: CatalogConflict | null;
  };
  uploads: Record<LogoField, UploadState>;
}

const idleUpload = (): UploadState => ({ status: 'idle', answer: null, error: null });

const initialState: CatalogEditorState = {
  list: { rows: [], status: 'idle', toggling: [], retryable: true },
  editor: { id: null, status: 'idle', retryable: true, platform: null, loads: 0, saving: false, conflict: null },
  uploads: { logoBase: idleUpload(), logoCarousel: idleUpload() },
};

export interface SaveRequest {
  body: CreatePlatformBody;
  /** Re-apply after a conflict: send the version saved now, over the other admin's save. */
  overVersion?: number;
}

export const catalogEditorSlice = createSlice({
  name: 'catalogEditor',
  initialState,
  reducers: {
    catalogListOpened(state) {
      state.list.status = 'loading';
    },
    catalogListClosed() {},
    catalogListLoaded(state, action: PayloadAction<CatalogListItem[]>) {
      state.list.rows = action.payload;
      state.list.status = 'loaded';
    },
    catalogListFailed(state, action: PayloadAction<{ retryable: boolean }>) {
      state.list.status = 'failed';
      state.list.retryable = action.payload.retryable;
    },
    enabledToggleRequested(state, action: PayloadAction<{ id: number; isEnabled: boolean; version: number; name: string }>) {
      state.list.toggling.push(action.payload.id);
    },
    enabledToggleFinished(state, action: PayloadAction<{ id: number }>) {
      state.list.toggling = state.list.toggling.filter((id) => id !== action.payload.id);
    },
    editorOpened(state, action: PayloadAction<number | null>) {
      state.editor = { ...initialState.editor, id: action.payload, status: action.payload === null ? 'loaded' : 'loading', loads: state.editor.loads + 1 };
      state.uploads = initialState.uploads;
    },
    editorClosed(state) {
      state.editor = { ...initialState.editor, loads: state.editor.loads };
      state.uploads = initialState.uploads;
    },
    editorReloadRequested(state) {
      state.editor.status = 'loading';
    },
    editorLoaded(state, action: PayloadAction<EditablePlatform>) {
      state.editor.platform = action.payload;
      state.editor.id = action.payload.id;
      state.editor.status = 'loaded';
      state.editor.conflict = null;
      state.editor.loads += 1;
    },
    editorFailed(state, action: PayloadAction<{ status: 'failed' | 'notFound'; retryable: boolean }>) {
      state.editor.status = action.payload.status;
      state.editor.retryable = action.payload.retryable;
    },
    saveRequested(state, _action: PayloadAction<SaveRequest>) {
      state.editor.saving = true;
    },
    /** Saved: the form starts again from the platform as saved now (its new version, the ids of new durations and types). */
    saveSucceeded(state, action: PayloadAction<EditablePlatform>) {
      state.editor.saving = false;
      state.editor.platform = action.payload;
      state.editor.id = action.payload.id;
      state.editor.conflict = null;
      state.editor.loads += 1;
    },
    saveFailed(state) {
      state.editor.saving = false;
    },
    saveConflicted(state, action: PayloadAction<CatalogConflict>) {
      state.editor.saving = false;
      state.editor.conflict = action.payload;
    },
    /** "Load their version": the platform as saved now replaces the form. */
    conflictReloaded(state) {
      const conflict = state.editor.conflict;
      if (!conflict) return;
      state.editor.platform = conflict.current;
      state.editor.conflict = null;
      state.editor.loads += 1;
    },
    logoUploadRequested(state, action: PayloadAction<{ field: LogoField; file: File }>) {
      state.uploads[action.payload.field] = { status: 'uploading', answer: null, error: null };
    },
    logoUploaded(state, action: PayloadAction<{ field: LogoField; answer: UploadAnswer }>) {
      state.uploads[action.payload.field] = { status: 'done', answer: action.payload.answer, error: null };
    },
    logoUploadFailed(state, action: PayloadAction<{ field: LogoField; error: string }>) {
      state.uploads[action.payload.field] = { status: 'failed', answer: null, error: action.payload.error };
    },
  },
  selectors: {
    selectCatalogList: (state) => state.list,
    selectCatalogEditor: (state) => state.editor,
    selectCatalogUploads: (state) => state.uploads,
  },
});

/** The slice, added to the store's reducer now that the admin chunk has loaded. */
export const injectedCatalogEditorSlice = catalogEditorSlice.injectInto(rootReducer);

export const { selectCatalogList, selectCatalogEditor, selectCatalogUploads } = injectedCatalogEditorSlice.selectors;

export const {
  catalogListOpened,
  catalogListClosed,
  catalogListLoaded,
  catalogListFailed,
  enabledToggleRequested,
  enabledToggleFinished,
  editorOpened,
  editorClosed,
  editorReloadRequested,
  editorLoaded,
  editorFailed,
  saveRequested,
  saveSucceeded,
  saveFailed,
  saveConflicted,
  conflictReloaded,
  logoUploadRequested,
  logoUploaded,
  logoUploadFailed,
} = catalogEditorSlice.actions;
