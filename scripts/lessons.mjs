// The page's gallery in lesson order: shared/lessons.json names every scene of shared/scenes once, with a
// title and a sentence of what it shows. Scene files stay pure scenes (the scene format refuses unknown
// fields), so titles, sentences and order live here. Read by scripts/build.mjs, which writes
// web/dist/viz/gallery.json from it and fails, naming the file, when the manifest and the folder disagree.

const LESSON_FIELDS = ['lesson', 'scenes'];
const ENTRY_FIELDS = ['file', 'title', 'sentence'];

/** A short JSON quote of a value for a message. */
function quote(v) {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}

function text(errors, where, value) {
  if (typeof value !== 'string' || value.trim() === '') {
    errors.push(`${where}: expected a non-empty string, got ${quote(value)}`);
    return false;
  }
  return true;
}

function unknownFields(errors, where, obj, allowed) {
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) errors.push(`${where}: unknown field ${quote(k)} (the fields are ${allowed.join(', ')})`);
  }
}

/**
 * Checks `manifest` (the parsed shared/lessons.json) against `files` (the .json names in shared/scenes).
 * Returns every problem found, each naming the lesson, the entry or the file; an empty list when the
 * manifest lists each scene file exactly once, each with a title and a sentence.
 */
export function checkLessons(manifest, files) {
  const errors = [];
  if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) {
    return [`expected an object { "lessons": [...] }, got ${quote(manifest)}`];
  }
  unknownFields(errors, 'the manifest', manifest, ['lessons']);
  if (!Array.isArray(manifest.lessons)) return [...errors, `lessons: expected an array, got ${quote(manifest.lessons)}`];
  const present = new Set(files);
  const listed = new Map();
  manifest.lessons.forEach((lesson, i) => {
    const at = `lessons[${i}]`;
    if (lesson === null || typeof lesson !== 'object' || Array.isArray(lesson)) {
      errors.push(`${at}: expected { "lesson", "scenes" }, got ${quote(lesson)}`);
      return;
    }
    unknownFields(errors, at, lesson, LESSON_FIELDS);
    text(errors, `${at}.lesson`, lesson.lesson);
    if (!Array.isArray(lesson.scenes)) {
      errors.push(`${at}.scenes: expected an array, got ${quote(lesson.scenes)}`);
      return;
    }
    lesson.scenes.forEach((entry, j) => {
      const where = `${at}.scenes[${j}]`;
      if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
        errors.push(`${where}: expected { "file", "title", "sentence" }, got ${quote(entry)}`);
        return;
      }
      unknownFields(errors, where, entry, ENTRY_FIELDS);
      text(errors, `${where}.title`, entry.title);
      text(errors, `${where}.sentence`, entry.sentence);
      if (!text(errors, `${where}.file`, entry.file)) return;
      if (!present.has(entry.file)) errors.push(`${where}.file: shared/scenes/${entry.file} does not exist`);
      if (listed.has(entry.file)) errors.push(`${where}.file: ${entry.file} is listed twice (also at ${listed.get(entry.file)})`);
      else listed.set(entry.file, where);
    });
  });
  for (const f of [...files].sort()) {
    if (!listed.has(f)) {
      errors.push(`shared/scenes/${f} is not in shared/lessons.json: add a line { "file": "${f}", "title": "…", "sentence": "…" } to its lesson`);
    }
  }
  return errors;
}

/**
 * The gallery in lesson order: one entry per scene, { lesson, title, sentence, file, name } (name = title,
 * what the page's example list shows). `manifest` must have passed checkLessons.
 */
export function galleryOrder(manifest) {
  return manifest.lessons.flatMap((l) => l.scenes.map((e) => ({
    lesson: l.lesson, title: e.title, sentence: e.sentence, file: e.file, name: e.title,
  })));
}
