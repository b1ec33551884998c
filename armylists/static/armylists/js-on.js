// Marks the page as scripted before it is drawn (CSS shows script-only controls under .js); loaded
// without defer from <head>, a file rather than inline for the Content-Security-Policy.
document.documentElement.classList.add("js");
