/** The Guardrails instance of this process (KbGuardrailsModule provides it). */
export const KB_GUARDRAILS = Symbol.for('kb-api.GUARDRAILS');
