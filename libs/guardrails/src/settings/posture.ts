import { ControlKey, ControlMode, GuardrailsSettings } from './setting-types';

export type Posture = 'Engaged' | 'Observing' | 'Disabled';

/** Engaged: enforcing and enabled; Observing: monitor; Disabled: off or not enabled. */
export function postureOf(enabled: boolean, mode: ControlMode): Posture {
  if (!enabled || mode === 'off') return 'Disabled';
  return mode === 'monitor' ? 'Observing' : 'Engaged';
}

export interface ControlState {
  key: ControlKey;
  label: string;
  enabled: boolean;
  /** The effective mode: `off` whenever the control is disabled. */
  mode: ControlMode;
  posture: Posture;
}

const CONTROLS: ReadonlyArray<{ key: ControlKey; label: string }> = [
  { key: 'tool_firewall', label: 'Tool Firewall' },
  { key: 'input_screen', label: 'Input Screening' },
  { key: 'output_handler', label: 'Output Handler' },
  { key: 'hitl', label: 'HITL Bridge' },
];

/** The four controls in overview order with their effective mode and posture. */
export function controlStates(settings: GuardrailsSettings): ControlState[] {
  return CONTROLS.map(({ key, label }) => {
    const enabled = settings[`${key}.enabled`];
    const mode = enabled ? settings[`modes.${key}`] : 'off';
    return { key, label, enabled, mode, posture: postureOf(enabled, mode) };
  });
}
