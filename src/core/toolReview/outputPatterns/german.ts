// German, read without accents (ä → a, ü → u: see normalise.ts): orders to the model. Docs tell
// people to "ignorieren" a warning and to follow "Anweisungen"; a finding needs earlier or system
// instructions, the user kept out, or data sent somewhere.
import { B, E, pattern, SECRET_FILE, URL, within } from './shared';

const USER = '(?:benutzer|nutzer|anwender|user)(?:in|innen|s|n)?';
const DATA = '(?:daten|inhalt|inhalte|verlauf|gesprachsverlauf|chatverlauf|konversation|nachrichten|antworten|dateien|datei|schlussel|api-schlussel|passworter|passwort|kennworter|kennwort|zugangsdaten|tokens?|geheimnisse|anmeldedaten|cookies)';

export const GERMAN = [
  pattern('ignore-instructions', `${B}(?:ignorier|vergiss|vergesst|vergessen\\s+sie|uberspring|missacht|umgeh)\\w*\\s+(?:\\p{L}+\\s+){0,3}?(?:vorherig|bisherig|vorig|fruher|obig|vorangegangen|ursprunglich|alle|deine|ihre|system)\\w*\\s*(?:\\p{L}+\\s+){0,2}?(?:anweisung|instruktion|regel|vorgabe|richtlinie|befehl|system-?prompt|systemanweisung|prompt)\\w*`),
  pattern('hide-from-user', `${B}(?:sag|sage|erzahl|erzahle|verrat|verrate|teil|teile|informier|informiere|zeig|zeige)\\w*\\s+(?:\\p{L}+\\s+){0,3}?(?:dem|der|den)\\s+${USER}\\s+(?:\\p{L}+\\s+){0,3}?(?:nichts|nicht)${E}|${B}ohne\\s+(?:es\\s+|das\\s+)?(?:dem|der|den)\\s+${USER}\\s+(?:zu\\s+)?(?:sagen|mitzuteilen|erzahlen|verraten)`),
  pattern('without-user-knowing', `${B}(?:heimlich|unbemerkt|insgeheim|verdeckt)${E}|${B}ohne\\s+(?:dass\\s+)?(?:der|die|den|dem)\\s+${USER}\\s+(?:es\\s+|das\\s+|davon\\s+)?(?:merkt|weiss|wissen|erfahrt|bemerkt|mitbekommt)`),
  pattern('sensitive-file-request', `${B}(?:lies|lese|les|offne|sende|schick|schicke|lade|gib|kopier|kopiere|fuge|fug|zeig|zeige|leite|ubermittle|poste|druck|drucke)\\w*\\s+${within(40)}${SECRET_FILE}`),
  pattern('read-secrets', `${B}(?:stiehl|sammle|leake|exfiltrier|lade|sende|schick|schicke|gib|ubermittle|kopiere|fuge)\\w*\\s+${within(40)}(?:passwort|passworter|kennwort|kennworter|api-schlussel|api-keys?|zugangsdaten|anmeldedaten|private[nr]?\\s+schlussel|tokens?)${E}${within(30)}(?:hoch|aus|weiter|ein|in\\s+(?:deine|die)\\s+(?:nachste\\s+)?antwort)?`),
  pattern('exfiltrate', `${B}(?:sende|schick|schicke|ubermittle|leite|lade|poste|uberträge|ubertrage)\\w*\\s+(?:\\p{L}+\\s+){0,4}?${DATA}${E}${within(60)}${URL}`),
  pattern('tool-shadowing', `${B}bevor\\s+du\\s+(?:irgend)?(?:ein|einen|eine)?\\s*(?:anderes|anderen|weiteres|sonstiges)?\\s*(?:werkzeug|tool)\\w*\\s+(?:verwendest|benutzt|nutzt|aufrufst|ausfuhrst)${within(20)}(?:musst|sollst)\\s+du\\s+(?:zuerst|immer|erst)`),
  pattern('skip-confirmation', `${B}ohne\\s+(?:den|die|dem)\\s+${USER}\\s+(?:um\\s+(?:bestatigung|erlaubnis|zustimmung|freigabe)\\s+)?(?:zu\\s+)?(?:fragen|bitten|zu\\s+fragen)|${B}ohne\\s+(?:bestatigung|erlaubnis|zustimmung)\\s+(?:des|der)\\s+${USER}|${B}(?:frag|frage)\\s+(?:den|die)\\s+${USER}\\s+nicht${E}`),
  pattern('role-override', `${B}ab\\s+(?:sofort|jetzt)\\s+bist\\s+du${E}|${B}du\\s+bist\\s+(?:jetzt|nun|ab\\s+sofort)\\s+(?:ein|eine|der|die|kein)${E}|${B}neue\\s+(?:system)?anweisungen\\s*:`),
  pattern('reveal-system-prompt', `${B}(?:gib|zeig|zeige|verrat|verrate|wiederhole|druck)\\w*\\s+(?:\\p{L}+\\s+){0,3}?(?:system-?prompt|systemanweisungen)${E}`),
];
