// German, read without accents (ä → a, ü → u: see normalise.ts): orders to the model. Docs tell
// people to "ignorieren" a warning and to follow "Anweisungen"; a finding needs earlier or system
// instructions, the user kept out, or data sent somewhere.
import { latinPattern, SECRET_FILE, URL, within } from './shared';

const USER = '(?:benutzer|nutzer|anwender|user)(?:in|innen|s|n)?';
const DATA = '(?:daten|inhalt|inhalte|verlauf|gesprachsverlauf|chatverlauf|konversation|nachrichten|antworten|dateien|datei|schlussel|api-schlussel|passworter|passwort|kennworter|kennwort|zugangsdaten|tokens?|geheimnisse|anmeldedaten|cookies)';

export const GERMAN = [
  latinPattern('ignore-instructions', `\\b(?:ignorier|vergiss|vergesst|vergessen\\s+sie|uberspring|missacht|umgeh)\\w*\\s+(?:[\\w'’-]+\\s+){0,3}?(?:vorherig|bisherig|vorig|fruher|obig|vorangegangen|ursprunglich|alle|deine|ihre|system)\\w*\\s*(?:[\\w'’-]+\\s+){0,2}?(?:anweisung|instruktion|regel|vorgabe|richtlinie|befehl|system-?prompt|systemanweisung|prompt)\\w*`),
  latinPattern('hide-from-user', `\\b(?:sag|sage|erzahl|erzahle|verrat|verrate|teil|teile|informier|informiere|zeig|zeige)\\w*\\s+(?:[\\w'’-]+\\s+){0,3}?(?:dem|der|den)\\s+${USER}\\s+(?:[\\w'’-]+\\s+){0,3}?(?:nichts|nicht)\\b|\\bohne\\s+(?:es\\s+|das\\s+)?(?:dem|der|den)\\s+${USER}\\s+(?:zu\\s+)?(?:sagen|mitzuteilen|erzahlen|verraten)`),
  latinPattern('without-user-knowing', `\\b(?:heimlich|unbemerkt|insgeheim|verdeckt)\\b|\\bohne\\s+(?:dass\\s+)?(?:der|die|den|dem)\\s+${USER}\\s+(?:es\\s+|das\\s+|davon\\s+)?(?:merkt|weiss|wissen|erfahrt|bemerkt|mitbekommt)`),
  latinPattern('sensitive-file-request', `\\b(?:lies|lese|les|offne|sende|schick|schicke|lade|gib|kopier|kopiere|fuge|fug|zeig|zeige|leite|ubermittle|poste|druck|drucke)\\w*\\s+${within(40)}${SECRET_FILE}`),
  latinPattern('read-secrets', `\\b(?:stiehl|sammle|leake|exfiltrier|lade|sende|schick|schicke|gib|ubermittle|kopiere|fuge)\\w*\\s+${within(40)}(?:passwort|passworter|kennwort|kennworter|api-schlussel|api-keys?|zugangsdaten|anmeldedaten|private[nr]?\\s+schlussel|tokens?)\\b${within(30)}(?:hoch|aus|weiter|ein|in\\s+(?:deine|die)\\s+(?:nachste\\s+)?antwort)?`),
  latinPattern('exfiltrate', `\\b(?:sende|schick|schicke|ubermittle|leite|lade|poste|uberträge|ubertrage)\\w*\\s+(?:[\\w'’-]+\\s+){0,4}?${DATA}\\b${within(60)}${URL}`),
  latinPattern('tool-shadowing', `\\bbevor\\s+du\\s+(?:irgend)?(?:ein|einen|eine)?\\s*(?:anderes|anderen|weiteres|sonstiges)?\\s*(?:werkzeug|tool)\\w*\\s+(?:verwendest|benutzt|nutzt|aufrufst|ausfuhrst)${within(20)}(?:musst|sollst)\\s+du\\s+(?:zuerst|immer|erst)`),
  latinPattern('skip-confirmation', `\\bohne\\s+(?:den|die|dem)\\s+${USER}\\s+(?:um\\s+(?:bestatigung|erlaubnis|zustimmung|freigabe)\\s+)?(?:zu\\s+)?(?:fragen|bitten|zu\\s+fragen)|\\bohne\\s+(?:bestatigung|erlaubnis|zustimmung)\\s+(?:des|der)\\s+${USER}|\\b(?:frag|frage)\\s+(?:den|die)\\s+${USER}\\s+nicht\\b`),
  latinPattern('role-override', `\\bab\\s+(?:sofort|jetzt)\\s+bist\\s+du\\b|\\bdu\\s+bist\\s+(?:jetzt|nun|ab\\s+sofort)\\s+(?:ein|eine|der|die|kein)\\b|\\bneue\\s+(?:system)?anweisungen\\s*:`),
  latinPattern('reveal-system-prompt', `\\b(?:gib|zeig|zeige|verrat|verrate|wiederhole|druck)\\w*\\s+(?:[\\w'’-]+\\s+){0,3}?(?:system-?prompt|systemanweisungen)\\b`),
];
