// express 5, defaults.
import express from "express";

class UsersService {
  find(id) {
    return { id, name: `user ${id}` };
  }
}

const INT = /^-?\d+$/;
const app = express();
app.locals.users = new UsersService(); // singleton service

app.get("/hello", (_req, res) => {
  res.json({ hello: "world" });
});
app.get("/users/:id", (req, res) => {
  const raw = req.params.id;
  if (!INT.test(raw)) {
    res.status(400).json({
      statusCode: 400,
      message: "Validation failed (numeric string is expected)",
      error: "Bad Request",
    });
    return;
  }
  res.json(req.app.locals.users.find(Number.parseInt(raw, 10)));
});

app.listen(Number(process.env.PORT), "127.0.0.1");
