/**
 * Default input-screen rules (all `/…/iu`): instruction override, system-prompt disclosure, role
 * override and data exfiltration, in English, German, French, Spanish and Italian. They run on
 * normalized (casefolded, confusable-folded) text. Phrases are specific on purpose: "previous"
 * or "system" alone never match, so ordinary prompts pass (see the benign corpus in the tests).
 * JS `\b` is ASCII-only even with the u flag, so boundaries next to accented letters use \s.
 */
export const DEFAULT_SCREEN_RULES: Record<string, string> = {
  ignore_previous:
    '/\\b(ignore|disregard|forget|override)\\s+(all\\s+|any\\s+|the\\s+)?(previous|prior|above|earlier)\\s+(instructions?|rules|prompts?)|\\b(ignoriere|vergiss)\\s+(alle\\s+)?(vorherigen|bisherigen)\\s+(anweisungen|regeln)|\\b(ignore|oublie)z?\\s+(toutes\\s+)?les\\s+instructions\\s+(pr[ée]c[ée]dentes|ant[ée]rieures)|\\bignora\\s+(todas\\s+)?las\\s+instrucciones\\s+(anteriores|previas)|\\bignora\\s+(tutte\\s+)?le\\s+istruzioni\\s+(precedenti|sopra)/iu',
  reveal_system_prompt:
    '/\\b(reveal|show|print|repeat|output)\\b.{0,30}\\b(system\\s+prompt|hidden\\s+instructions)|\\b(zeige|verrate|gib)\\b.{0,30}\\bsystem-?prompt|\\b(montre|r[ée]v[èe]le|affiche)\\b.{0,30}\\bprompt\\s+syst[èe]me|\\b(muestra|revela)\\b.{0,30}\\bprompt\\s+del\\s+sistema|\\b(mostra|rivela)\\b.{0,30}\\bprompt\\s+di\\s+sistema/iu',
  role_override:
    '/\\byou\\s+are\\s+now\\s+(in\\s+)?(developer|admin|root|dan|jailbreak)|\\bact\\s+as\\b.{0,40}\\b(admin|root|developer\\s+mode)|\\bdu\\s+bist\\s+jetzt\\b.{0,30}\\b(administrator|admin|entwicklermodus)|\\btu\\s+es\\s+maintenant\\b.{0,30}\\b(administrateur|admin|mode\\s+d[ée]veloppeur)|\\bahora\\s+eres\\b.{0,30}\\b(administrador|admin|modo\\s+desarrollador)|\\bora\\s+sei\\b.{0,30}\\b(amministratore|admin|modalit[àa]\\s+sviluppatore)/iu',
  exfiltrate:
    '/\\b(send|email|post|upload|exfiltrate)\\b.{0,40}\\b(api\\s+keys?|secrets?|passwords?|access\\s+tokens?)\\b.{0,40}\\b(to|at)\\b|\\b(sende|schicke)\\b.{0,40}\\b(api-?schl[üu]ssel|passw[öo]rter|passwort)\\b.{0,40}\\ban\\b|\\b(envoie|envoyer)\\b.{0,40}\\b(cl[ée]s?\\s+api|mots?\\s+de\\s+passe)\\b.{0,40}\\s[àa]\\s|\\b(env[íi]a|enviar)\\b.{0,40}\\b(claves?\\s+api|contrase[ñn]as?)\\b.{0,40}\\ba\\b|\\b(invia|inviare)\\b.{0,40}\\b(chiavi\\s+api|password)\\b.{0,40}\\ba\\b/iu',
};
