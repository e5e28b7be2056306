import type { CSSProperties, IframeHTMLAttributes } from 'react'
import type { AllDocumentsCompleted, SignerCompleted, SigningFieldTarget } from '../protocol/index.js'
import type {
  EditorStep, EmbedCssVars, EmbedErrorCode, EmbedFeatures, EmbedProblem, EnvelopeType, RejectedData, SignedData,
} from '../protocol/index.js'

export type { EditorStep, EmbedCommandErrorCode, EmbedProblem } from '../protocol/index.js'

export type { EnvelopeEditorFeatures, SigningFieldTarget } from '../protocol/index.js'

/** What `onError` receives: a host `embed-error`, or the library's `TIMEOUT` / `INVALID_OPTIONS`. */
export interface EmbedError {
  code: EmbedErrorCode | (string & {})
  message: string
}

/** Options every component takes, the signing one included, and that `EmbedProvider` can set for all of them. */
export interface EmbedFrameProps {
  /** Origin of the signing service, e.g. `https://sign.example.com`. Default: `DEFAULT_HOST`. Must be http(s). */
  host?: string
  /** Custom CSS injected into the embedded pages. */
  css?: string
  /** Theme variables (colours, radius, spacing); extra keys pass through as custom properties. */
  cssVars?: EmbedCssVars
  darkModeDisabled?: boolean
  /** UI language code, e.g. `en`, `de`. */
  language?: string
  /** Class of the iframe. */
  className?: string
  /** Inline style of the iframe (default `border: 0`, 100% wide, 800px high). */
  style?: CSSProperties
  /** Accessible name of the iframe; each component has a default. */
  title?: string
  /**
   * Extra attributes for the iframe (e.g. `allow`, `loading`, `data-*`). They can never replace
   * `src`, `srcDoc` or `title`; `className` and `style` come from their own props.
   */
  additionalProps?: IframeHTMLAttributes<HTMLIFrameElement> & Record<`data-${string}`, string>
  /** Follow the content height the service reports (`embed-resize`). */
  autoHeight?: boolean
  /**
   * Milliseconds until `onError({code: 'TIMEOUT'})` when nothing at all arrives from the frame
   * (3 s after the frame's load, at most this: `HOST_UNREACHABLE` or `NOT_A_SIGNING_SERVICE`).
   * Default 15000; 0 turns both off.
   */
  timeout?: number
  /**
   * `false` for a host known to send none of this library's extension messages (the deployed
   * service): its frame is taken to hold the service once it loads, and an authoring page's load is
   * its readiness. Default `true`: readiness is the page's own message, never a load, since browser
   * error pages and other sites load too.
   */
  extensions?: boolean
  /** The embedded UI is ready: once per load of the frame. */
  onReady?: () => void
  onError?: (error: EmbedError) => void
}

/** Options every authoring component takes, and that `EmbedProvider` can set for all of them. */
export interface EmbedSharedProps extends EmbedFrameProps {
  /** Your reference for the envelope; echoed back in the callbacks. */
  externalId?: string
  /**
   * What the user may configure; a missing key means allowed. The six flat toggles
   * (`allowConfigureLanguage`, …) and/or the nested groups the envelope editor understands
   * (`general`, `settings`, `actions`, `envelopeItems`, `recipients`; a group set to `null` is off).
   */
  features?: EmbedFeatures
}

export interface EmbedCommonProps extends EmbedSharedProps {
  /** Presign token from your backend (`POST /embedding/create-presign-token`). Required. */
  presignToken: string
  /** The page shows another step (also after `goToStep`, and where a failed save takes the user). */
  onStepChange?: (step: EditorStep) => void
  /** The page now has (true) or no longer has (false) edits that are not saved: warn before you navigate away. */
  onDirtyChange?: (dirty: boolean) => void
  /** The user's (or `save()`'s) save did not go through: what stopped it, in the page's language. */
  onSaveFailed?: (problems: EmbedProblem[]) => void
}

/**
 * What `ref` of an authoring component gets. Each method is a request the page answers; a
 * refused or unanswered one rejects with an `EmbedCommandError` (`NOT_READY`, `REFUSED` with the
 * page's `problems`, `TIMEOUT` after the `timeout` prop, `UNSUPPORTED` by a host that predates it).
 * Called before the page is ready, a command waits for it (within the same `timeout`).
 */
export interface EnvelopeEditorHandle<E = EnvelopeEvent> {
  /** Saves (creates or updates) as the page's own button does: resolves with the done callback's event. */
  save(): Promise<E>
  /** Shows this step. */
  goToStep(step: EditorStep): Promise<void>
  /** Whether the page has edits that are not saved. */
  isDirty(): Promise<boolean>
  /** Drops unsaved edits (and their stored copy) and loads the envelope afresh from the service. */
  reload(): Promise<void>
}

export interface EmbedUpdateProps {
  /** Open on the fields step with recipients locked. Default false. */
  onlyEditFields?: boolean
}

/** Argument of the envelope callbacks; `externalId` only when one was supplied. */
export interface EnvelopeEvent {
  envelopeId: string
  externalId?: string
}
/** Argument of the legacy document callbacks. */
export interface DocumentEvent {
  documentId: number
  externalId?: string
}
/** Argument of the legacy template callbacks. */
export interface TemplateEvent {
  templateId: number
  externalId?: string
}

export interface EmbedCreateEnvelopeProps extends EmbedCommonProps {
  type: EnvelopeType
  onEnvelopeCreated?: (event: EnvelopeEvent) => void
  /** Called with the envelope when `type` is `DOCUMENT`. */
  onDocumentCreated?: (event: EnvelopeEvent) => void
  /** Called with the envelope when `type` is `TEMPLATE`. */
  onTemplateCreated?: (event: EnvelopeEvent) => void
}

export interface EmbedUpdateEnvelopeProps extends EmbedCommonProps, EmbedUpdateProps {
  /** `envelope_...` */
  envelopeId: string
  onEnvelopeUpdated?: (event: EnvelopeEvent) => void
}

export interface EmbedCreateDocumentV1Props extends EmbedCommonProps {
  onDocumentCreated?: (event: DocumentEvent) => void
}
export interface EmbedCreateTemplateV1Props extends EmbedCommonProps {
  onTemplateCreated?: (event: TemplateEvent) => void
}
export interface EmbedUpdateDocumentV1Props extends EmbedCommonProps, EmbedUpdateProps {
  /** Legacy numeric id (`document_42` -> 42). */
  documentId: number
  onDocumentUpdated?: (event: DocumentEvent) => void
}
export interface EmbedUpdateTemplateV1Props extends EmbedCommonProps, EmbedUpdateProps {
  /** Legacy numeric id (`template_7` -> 7). */
  templateId: number
  onTemplateUpdated?: (event: TemplateEvent) => void
}

/** Argument of `onDocumentCompleted`: the recipient's token, the legacy document id, the recipient id (and, from our host, the envelope id). */
export type DocumentCompletedEvent = SignedData
/** Argument of `onDocumentRejected`: as for completion, plus the recipient's `reason`. */
export type DocumentRejectedEvent = RejectedData

/**
 * The recipient's side: `EmbedSignDocument` and `EmbedDirectTemplate`. Of `EmbedProvider`'s
 * options they take `host`, `css`, `cssVars`, `darkModeDisabled`, `language`, the iframe's props
 * and the shared callbacks (`features` is an authoring option). `additionalProps` are iframe
 * attributes, as for every component here (the service's own library spreads them into the hash instead).
 */
export interface EmbedSigningProps extends EmbedFrameProps {
  /** Prefills the signer's name where the page asks for it. */
  name?: string
  /** The prefilled name cannot be changed. */
  lockName?: boolean
  /** Prefills the signer's e-mail where the page asks for it. */
  email?: string
  /** The prefilled e-mail cannot be changed. */
  lockEmail?: boolean
  /** The document is shown and can be signed (`document-ready`). */
  onDocumentReady?: () => void
  /** The recipient completed their part (signed, approved or viewed). */
  onDocumentCompleted?: (event: DocumentCompletedEvent) => void
  /** The signing page reports a problem, as a message. */
  onDocumentError?: (message: string) => void
  /** A field got a value. */
  onFieldSigned?: () => void
  /** A field's value was cleared. */
  onFieldUnsigned?: () => void
  /** The recipient is asked to prove who they are (the sender's authentication): before the document, or to act. */
  onAuthRequired?: (step: 'access' | 'action') => void
  /** What the recipient gave did not check out (`AUTH_FAILED`, `CODE_EXPIRED`, `TOO_MANY_ATTEMPTS`...). */
  onAuthFailed?: (code: string) => void
}

export interface EmbedSignDocumentProps extends EmbedSigningProps {
  /** The recipient's token (from the envelope's recipients, or from distribute). Required; it is the credential. */
  token: string
  /** Show the reject action. Default: the service's choice (our host shows it). */
  allowDocumentRejection?: boolean
  /** The recipient rejected the document, with their reason. */
  onDocumentRejected?: (event: DocumentRejectedEvent) => void
  /**
   * Sequential signing: it is not this recipient's turn yet (someone before them has still to
   * act), so the page shows who it waits for instead of the document. Called after `onDocumentReady`.
   */
  onWaitingForTurn?: () => void
  /** The recipient's link passed its deadline: the page shows that it expired and refuses to act. Called after `onDocumentReady`. */
  onLinkExpired?: () => void
}

/**
 * What `ref` of `EmbedSignDocument` and `EmbedDirectTemplate` gets. Each method is a request the
 * signing page answers; a refused or unanswered one rejects with an `EmbedCommandError`
 * (`REFUSED` where the screen shown does not offer it, `TIMEOUT`, `UNSUPPORTED` by a host that
 * predates it). Called before the page is ready, a command waits for it.
 */
export interface SigningHandle {
  /** Moves to and focuses the next field still to fill (after the current one): which, or null when none is left. */
  nextField(): Promise<SigningFieldTarget | null>
  /** Zooms the pages, from 100 (they fit the width) to 300 percent; resolves with the zoom set, refuses one outside. */
  setZoom(percent: number): Promise<number>
  /**
   * Downloads what the screen shown offers (the files as sent while the document is signed, the
   * sealed files once it is complete) and resolves with their file names; refused where it offers none.
   */
  download(): Promise<string[]>
}

/** Argument of `onSignerCompleted`: the document just signed or rejected, and the frame's progress. */
export type SignerCompletedEvent = SignerCompleted['data']
/** Argument of `onAllDocumentsCompleted`: every document of the frame, in the order of `tokens`. */
export type AllDocumentsCompletedEvent = AllDocumentsCompleted['data']

/**
 * One person's several documents in one frame (`/embed/v1/multisign`): a list, each document
 * opened, signed or rejected in turn. `onDocumentCompleted` / `onDocumentRejected` fire per document.
 */
export interface EmbedMultiSignDocumentProps extends EmbedSigningProps {
  /** The recipient's token on each document (1 to 50). Required. */
  tokens: string[]
  /** Show the reject action. Default: the service's choice (our host shows it). */
  allowDocumentRejection?: boolean
  onDocumentRejected?: (event: DocumentRejectedEvent) => void
  /** The signer signed or rejected one document: which, and how many of how many are now done. */
  onSignerCompleted?: (event: SignerCompletedEvent) => void
  /** Every document is signed or rejected (documents done before the frame opened count). */
  onAllDocumentsCompleted?: (event: AllDocumentsCompletedEvent) => void
}

/**
 * A template's direct link: the visitor fills and signs the template's direct recipient's fields,
 * gives their name and e-mail, and a document is made from the template for them.
 * `onDocumentCompleted` carries the new document's id and the visitor's own signing token on it.
 */
export interface EmbedDirectTemplateProps extends EmbedSigningProps {
  /** The direct link's token (`directLink.token` of the template). Required. */
  token: string
  /** The new document's external id. */
  externalId?: string
}
