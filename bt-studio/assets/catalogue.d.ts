// The types of /catalogue.js, which the server writes (bt-studio/src/assets.rs)
// from behaved-runtime's catalogue and behaved_studio::limits.

/** One node kind of the catalogue (bt-studio/src/edit/palette.rs). */
export interface Kind {
  /** Its JSON name (`"sequence"`). */
  type: string;
  /** Its DSL word. */
  dsl: string;
  /** What it does, in one sentence (the catalogue's first doc line). */
  summary: string;
  /** How many children it takes. */
  arity: 'leaf' | 'one' | 'many' | 'branches';
  /** Its palette group. */
  group: string;
  /** The glyph drawn in its box. */
  icon: string;
  /** Its JSON fields. */
  fields: string[];
  /** Where its children go. */
  slots: 'none' | 'child' | 'children' | 'conditionChild' | 'branches' | 'cases';
  /** Whether it is a loop. */
  loop: boolean;
}

/** One of `utility`'s response curves (behaved_runtime::utility::CURVES). */
export interface CurveKind {
  /** Its JSON name (`"logistic"`). */
  name: string;
  /** Its parameters, in the DSL's order (`points` for a piecewise curve). */
  params: string[];
}

/** The node kinds, the palette's groups and `utility`'s response curves. */
export const catalogue: { groups: string[]; kinds: Kind[]; curves: CurveKind[] };

/** The largest trace the studio shows (behaved_studio::limits). */
export interface Limits {
  traceBytes: number;
  traceNodes: number;
  traceEvents: number;
}

export const limits: Limits;
