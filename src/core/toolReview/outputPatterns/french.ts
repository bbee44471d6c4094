// French, read without accents (é → e: see normalise.ts): orders to the model. Recipes "ignorent" the
// original recipe and docs give "instructions"; a finding needs earlier or system instructions, the
// user kept out, or data sent somewhere.
import { B, E, pattern, SECRET_FILE, URL, within } from './shared';

const USER = "(?:l'|l’)?(?:utilisateur|utilisatrice|usager)s?";
const DATA = '(?:donnees|contenu|historique|conversation|messages|reponses|fichiers?|cles|cle|mots\\s+de\\s+passe|mot\\s+de\\s+passe|identifiants|jetons?|tokens?|secrets|cookies)';

export const FRENCH = [
  pattern('ignore-instructions', `${B}(?:ignor|oubli|contourn|outrepass)\\w*\\s+(?:\\p{L}+['’]?\\s*){0,3}?(?:instructions?|consignes?|regles?|directives?|prompt|invite)\\s+(?:\\p{L}+\\s+){0,1}?(?:precedent|anterieur|systeme|initial|d'origine|ci-dessus)\\w*|${B}(?:ignor|oubli)\\w*\\s+(?:tes|vos|les)\\s+(?:consignes|instructions|regles)\\s+systeme`),
  pattern('hide-from-user', `${B}ne\\s+(?:dis|dites|revele|revelez|montre|montrez|mentionne|mentionnez|signale|signalez)\\s+(?:rien|pas|jamais)${within(20)}a\\s+${USER}|${B}sans\\s+(?:le\\s+)?(?:dire|signaler|mentionner)\\s+a\\s+${USER}`),
  pattern('without-user-knowing', `${B}(?:discretement|secretement|en\\s+secret|a\\s+l'insu\\s+de)${E}|${B}sans\\s+que\\s+${USER}\\s+(?:ne\\s+)?(?:le\\s+)?(?:sache|remarque|voie)`),
  pattern('sensitive-file-request', `${B}(?:lis|lisez|ouvre|ouvrez|envoie|envoyez|transmets|transmettez|copie|copiez|colle|collez|affiche|affichez|inclus|incluez|joins|joignez|televerse|televersez|imprime)\\w*\\s+${within(40)}${SECRET_FILE}`),
  pattern('read-secrets', `${B}(?:vole|volez|envoie|envoyez|transmets|transmettez|copie|copiez|colle|collez|affiche|affichez|divulgue|divulguez|recupere)\\w*\\s+${within(30)}(?:mots?\\s+de\\s+passe|cles?\\s+(?:api|privees?|secretes?)|identifiants|jetons?\\s+d'acces|tokens?)${E}`),
  pattern('exfiltrate', `${B}(?:envoie|envoyez|transmets|transmettez|televerse|televersez|poste|postez|publie|transfere|transferez)\\w*\\s+(?:\\p{L}+['’]?\\s*){0,4}?${DATA}${E}${within(60)}${URL}`),
  pattern('tool-shadowing', `${B}avant\\s+d['’]?\\s*(?:utiliser|appeler|lancer|executer)\\s+(?:tout|n'importe\\s+quel|un|chaque)\\s+(?:autre\\s+)?outil${within(20)}(?:tu\\s+dois|vous\\s+devez|il\\s+faut)\\s+(?:toujours\\s+)?(?:d['’]abord|toujours|d'abord)`),
  pattern('skip-confirmation', `${B}sans\\s+(?:demander|attendre|solliciter)\\s+(?:la\\s+|l['’]|le\\s+)?(?:confirmation|permission|autorisation|accord|consentement|avis)${within(10)}(?:de\\s+)?${USER}|${B}sans\\s+demander\\s+a\\s+${USER}`),
  pattern('role-override', `${B}(?:a\\s+partir\\s+de\\s+maintenant|desormais|dorenavant|a\\s+present),?\\s+(?:tu\\s+es|vous\\s+etes|tu\\s+dois|tu\\s+n'as)${E}|${B}tu\\s+es\\s+(?:maintenant|desormais)\\s+(?:un|une)${E}|${B}nouvelles\\s+(?:consignes|instructions)\\s*:`),
  pattern('reveal-system-prompt', `${B}(?:affiche|affichez|revele|revelez|montre|montrez|repete|repetez|donne|donnez)\\w*\\s+(?:\\p{L}+\\s+){0,2}?(?:prompt|invite|consignes?|instructions?)\\s+systeme${E}`),
];
