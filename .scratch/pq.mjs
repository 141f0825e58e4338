import PQueue from "p-queue";
const q = new PQueue({ concurrency: 2 });
let rel;
void q.add(() => new Promise((done) => { rel = done; }));
console.log("sync start:", typeof rel, "pending", q.pending, "size", q.size);
