/**
 * A PDF's own form fields (pdf/form-fields.ts, read when the upload is checked) as envelope fields:
 * the same type where there is one, the form's words for it as the label, its options kept, its
 * box as the form drew it. Every door that offers them (the create option, new items, the editor's
 * question through `POST /pdf/form-fields`) converts through here, so they agree.
 */
import type { FormField, FormFieldType } from '../../pdf/form-fields.js'
import type { FieldPlacement } from '../common/inputs.js'

/** An envelope field made from a form field: where it goes and what it is, not yet whose. */
export type FormFieldPlacement = Omit<FieldPlacement, 'recipientId' | 'envelopeItemId' | 'type' | 'fieldMeta'> & {
  type: FormFieldType
  fieldMeta: Record<string, unknown>
}

/**
 * The label a person reads: the form's description when it has one, else the last part of the
 * field's name without its index (`form1[0].page1[0].company[0]` reads `company`).
 */
export function formLabel(f: Pick<FormField, 'name' | 'label'>): string {
  if (f.label) return f.label
  const last = f.name.split('.').filter(Boolean).pop() ?? f.name
  return last.replace(/\[\d+\]$/, '').trim() || f.name
}

/** A form field as an envelope field: fieldMeta as the editor writes it ({type, label, required, options?}). */
export function fieldFromForm(f: FormField): FormFieldPlacement {
  const { type, page, positionX, positionY, width, height } = f
  return {
    type,
    page,
    positionX,
    positionY,
    width,
    height,
    fieldMeta: {
      type: type.toLowerCase(),
      label: formLabel(f),
      // A signature is always required; the form's own flag decides for the others.
      required: type === 'SIGNATURE' || f.required,
      ...(f.options?.length ? { options: f.options } : {}),
    },
  }
}

/** A checked upload's form fields as envelope fields, in the form's order. */
export const fieldsFromForm = (file: { formFields?: FormField[] | undefined }): FormFieldPlacement[] => (file.formFields ?? []).map(fieldFromForm)
