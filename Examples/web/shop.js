// The example shop's own behaviour: plain DOM code that knows nothing of Focal but its attributes.
// focal.js is loaded from the server named by the page's URL (?endpoint=…&key=…) and records what
// the user does to the elements that carry data-focal attributes.

const products = [
  ["Espresso cup", "8.00"], ["Tea pot", "24.00"], ["Stoneware mug", "12.50"], ["Milk jug", "9.90"],
  ["Sugar bowl", "7.50"], ["French press", "29.00"], ["Coffee grinder", "45.00"], ["Kettle", "39.00"],
  ["Tea strainer", "4.50"], ["Saucer set", "16.00"], ["Cake stand", "22.00"], ["Bread board", "18.00"],
  ["Butter dish", "11.00"], ["Egg cups", "6.00"], ["Salad bowl", "19.50"], ["Pasta plate", "13.00"],
  ["Water carafe", "15.00"], ["Wine glasses", "21.00"], ["Cutlery set", "49.00"], ["Napkins", "9.00"],
  ["Table runner", "17.00"], ["Candle holder", "12.00"], ["Oven mitt", "8.50"], ["Apron", "14.00"],
];
// Added at run time by the "new arrival" button, with the next product number.
const newArrival = ["Pour-over set", "34.00"];

const list = document.getElementById("list");
const detailSlot = document.getElementById("detail-slot");
const checkout = document.getElementById("checkout");
const cart = [];

function row(index, [title, price]) {
  const item = document.createElement("li");
  item.dataset.focal = "cell";
  item.dataset.focalIndex = String(index);
  item.dataset.focalValueTitle = title;
  item.append(`#${index} ${title} — ${price} €`);
  const dismiss = document.createElement("button");
  dismiss.type = "button";
  dismiss.dataset.focal = "dismiss";
  dismiss.title = "Not interested";
  dismiss.textContent = "✕";
  dismiss.addEventListener("click", () => item.remove());
  item.append(dismiss);
  item.addEventListener("click", (event) => {
    if (event.target !== dismiss) openDetail(index, title, price);
  });
  return item;
}

// The detail panel is made when a row is clicked: with data-focal-attach="focus" its node is a
// child of that row's node (/master/tableView/cell/detail), as a detail screen in an app.
function openDetail(index, title, price) {
  const panel = document.createElement("section");
  panel.dataset.focal = "detail";
  panel.dataset.focalAttach = "focus";
  panel.dataset.focalNamespace = "Shop.Detail";
  const heading = document.createElement("h2");
  heading.textContent = title;
  const text = document.createElement("p");
  text.textContent = `Product #${index}, ${price} €.`;
  const add = document.createElement("button");
  add.type = "button";
  add.dataset.focal = "button";
  add.id = "add-to-cart";
  add.textContent = "Add to cart";
  add.addEventListener("click", () => addToCart(price));
  panel.append(heading, text, add);
  detailSlot.replaceChildren(panel);
}

function addToCart(price) {
  cart.push(Number(price));
  const total = cart.reduce((sum, each) => sum + each, 0).toFixed(2);
  document.getElementById("cart-items").textContent = String(cart.length);
  document.getElementById("cart-total").textContent = total;
  // Values Focal may send: a change is an ana-updated event of the checkout node.
  checkout.dataset.focalValueItems = String(cart.length);
  checkout.dataset.focalValueTotal = total;
}

list.append(...products.map((product, index) => row(index, product)));

document.getElementById("new-arrivals").addEventListener("click", (event) => {
  event.currentTarget.disabled = true;
  list.prepend(row(products.length, newArrival));
});

checkout.addEventListener("change", (event) => {
  if (event.target.name === "shipping") checkout.dataset.focalValueShipping = event.target.value;
});

checkout.addEventListener("submit", (event) => {
  event.preventDefault();
  document.getElementById("thanks").textContent = "Thank you for your order.";
});

// Focal, from the server the page's URL names.
const query = new URLSearchParams(location.search);
const endpoint = query.get("endpoint");
const key = query.get("key");
if (!endpoint || !key) {
  document.body.prepend("Open this page as shop.html?endpoint=http://127.0.0.1:PORT&key=KEY (./Scripts/demo web prints it).");
} else {
  const { start } = await import(new URL("/v1/sdk/focal.js", endpoint).href);
  const focal = start({ endpoint, key });
  // For whoever watches the page (the browser test, the demo's reader): the session's id.
  document.documentElement.dataset.session = focal.session;
  window.dispatchEvent(new CustomEvent("shop-ready", { detail: focal.session }));
}
