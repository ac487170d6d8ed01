// Types for scripts/lessons.mjs (imported by tests/js/lessons.test.ts).
export interface LessonEntry { file: string; title: string; sentence: string }
export interface Lesson { lesson: string; scenes: LessonEntry[] }
export interface LessonManifest { lessons: Lesson[] }
export interface GalleryItem { lesson: string; title: string; sentence: string; file: string; name: string }
export function checkLessons(manifest: unknown, files: readonly string[]): string[];
export function galleryOrder(manifest: LessonManifest): GalleryItem[];
