// The public API of the gallery core: read the MCP registry's answers and translate its servers into entries.
export * from './types';
export { readRegistryPage, readServerDetail, searchUrl } from './read';
export { galleryItem, type GalleryItem, type InstallOption } from './translate';
export { DEFAULT_REGISTRY_URL, MAX_REGISTRY_RESPONSE_BYTES, SEARCH_LIMIT } from './constants';
export { InstallLinkError, installLinkQuery, LINK_AUTHORITY, MAX_LINK_BYTES, parseInstallLink, type LinkedServer } from './installLink';
export { inputsOfScopeText, ownInputs, reuseChoices, withReuse, type AskedValue, type OwnedEntry, type OwnInput, type Reuse } from './ownInputs';
export { installReviewText, type InstallCandidate, type InstallReview } from './reviewText';
export { SERVER_NAME_CHARACTERS, serverNameProblem, titleProblem } from './serverName';
