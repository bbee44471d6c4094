// Spanish, read without accents (á → a: see normalise.ts): orders to the model. Guides tell people
// not to "ignorar" the trail signs and to follow "instrucciones"; a finding needs earlier or system
// instructions, the user kept out, or data sent somewhere.
import { latinPattern, SECRET_FILE, URL, within } from './shared';

const USER = '(?:el\\s+|al\\s+|la\\s+)?(?:usuario|usuaria)s?';
const DATA = '(?:datos|contenido|historial|conversacion|mensajes|respuestas|archivos?|ficheros?|claves|clave|contrasenas?|credenciales|tokens?|secretos|cookies)';

export const SPANISH = [
  latinPattern('ignore-instructions', `\\b(?:ignora|ignore|ignoren|olvida|olvide|olviden|omite|salta)\\w*\\s+(?:[\\w'’-]+\\s+){0,3}?(?:instrucciones|indicaciones|reglas|normas|directrices|ordenes|prompt)\\s+(?:[\\w'’-]+\\s+){0,1}?(?:anteriores|previas|previos|del\\s+sistema|de\\s+sistema|originales|iniciales)`),
  latinPattern('hide-from-user', `\\bno\\s+(?:(?:le|les|se)\\s+)?(?:lo\\s+)?(?:digas|diga|cuentes|menciones|muestres|avises|informes)\\s+(?:nada\\s+)?(?:de\\s+esto\\s+|esto\\s+)?(?:a\\s+)?${USER}|\\bsin\\s+(?:decirselo|contarselo|avisar|informar)\\s+(?:a\\s+)?${USER}`),
  latinPattern('without-user-knowing', `\\b(?:en\\s+secreto|secretamente|a\\s+escondidas|sigilosamente)\\b|\\bsin\\s+que\\s+${USER}\\s+(?:lo\\s+)?(?:sepa|note|vea)`),
  latinPattern('sensitive-file-request', `\\b(?:lee|lea|abre|abra|envia|envie|manda|mande|sube|suba|copia|copie|pega|pegue|muestra|muestre|incluye|incluya|adjunta|adjunte|imprime|transmite)\\w*\\s+${within(40)}${SECRET_FILE}`),
  latinPattern('read-secrets', `\\b(?:roba|envia|envie|manda|sube|copia|pega|muestra|incluye|filtra|transmite)\\w*\\s+${within(30)}(?:contrasenas?|claves?\\s+(?:de\\s+)?(?:api|privadas?|secretas?)|credenciales|tokens?\\s+de\\s+acceso)\\b`),
  latinPattern('exfiltrate', `\\b(?:envia|envie|manda|mande|sube|suba|transmite|reenvia|publica)\\w*\\s+(?:[\\w'’-]+\\s+){0,4}?${DATA}\\b${within(60)}${URL}`),
  latinPattern('tool-shadowing', `\\bantes\\s+de\\s+(?:usar|llamar\\s+a|utilizar|ejecutar|invocar)\\s+(?:cualquier|otra|ninguna|cada)\\s+(?:otra\\s+)?herramienta${within(20)}(?:debes|tienes\\s+que|hay\\s+que)\\s+(?:siempre\\s+)?(?:primero|antes|siempre)?`),
  latinPattern('skip-confirmation', `\\bsin\\s+(?:pedir|esperar|solicitar)\\s+(?:la\\s+|el\\s+)?(?:confirmacion|permiso|autorizacion|aprobacion|consentimiento)${within(10)}(?:al\\s+|del\\s+)?(?:usuario|usuaria)|\\bsin\\s+preguntar\\s+(?:al\\s+)?(?:usuario|usuaria)`),
  latinPattern('role-override', `\\b(?:a\\s+partir\\s+de\\s+ahora|desde\\s+ahora|de\\s+ahora\\s+en\\s+adelante),?\\s+(?:tu\\s+)?(?:eres|seras|debes|actuas|no\\s+tienes)\\b|\\bahora\\s+eres\\s+(?:un|una)\\b|\\b(?:instrucciones|ordenes)\\s+nuevas\\s*:|\\bnuevas\\s+(?:instrucciones|ordenes)\\s*:`),
  latinPattern('reveal-system-prompt', `\\b(?:muestra|muestre|revela|revele|repite|repita|imprime|dime)\\w*\\s+(?:[\\w'’-]+\\s+){0,2}?(?:prompt|instrucciones)\\s+(?:de|del)\\s+sistema\\b`),
];
