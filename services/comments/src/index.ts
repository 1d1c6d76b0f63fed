export { commentsSchema, default } from "./comments.service";
